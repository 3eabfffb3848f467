from common import setup, bpt, compare
setup("r01")
from lightkv.build import init_memory_pool

dev, host = init_memory_pool(device="meta")
assert dev.kv_buffer.is_meta and host.kv_buffer.is_meta
tokens_dev, tokens_host = dev.size, host.page_num * host.token_page_size
compare("r01", {
    "kv_buffer": (bpt([(host.kv_buffer, tokens_host, host.layer_num)]),
                  bpt([(dev.kv_buffer, tokens_dev, dev.layer_num)])),
})
