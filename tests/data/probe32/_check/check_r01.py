from common import setup, bpt, compare

setup("r01")
from lightkv.model_init import init_memory_pool

dev, host = init_memory_pool(device="meta", host_device="meta")
tok_d, tok_h = dev.size + 1, host.size + 1
measured = {
    "kv_buffer": (bpt([(host.kv_buffer, tok_h, host.layer_num)]), bpt([(dev.kv_buffer, tok_d, dev.layer_num)])),
    "scale_buffer": (bpt([(host.scale_buffer, tok_h, host.layer_num)]), bpt([(dev.scale_buffer, tok_d, dev.layer_num)])),
}
compare("r01", measured)
