from _common import use_tree, bptl, expect

use_tree("r05")
from mla_serve.build import init_memory_pool

dev, host = init_memory_pool(device="meta")
L = dev.layer_num
assert host.layer_num == L == len(dev.kv_buffer) and host.kv_buffer.shape[0] == L
dev_tok = dev.size + dev.page_size  # includes the padded slot(s)
expect("dev kv_buffer", bptl(dev.kv_buffer, dev_tok, L), 1152)
expect("host kv_buffer", bptl(host.kv_buffer, host.size, L), 1024)
print("OK")
