from common import setup, bpt, compare
setup("r04")
from lightllm_fork.init_mem import init_mem_manager
dev, off = init_mem_manager(device="meta")
compare("r04", {
    "kv_buffer": (bpt([(off.cpu_kv_cache_tensor, off.num_tokens, off.layer_num)]),
                  bpt([(dev.kv_buffer, dev.size + 1, dev.layer_num)])),
})
