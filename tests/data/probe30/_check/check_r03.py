from _common import use_tree, bptl, expect

use_tree("r03")
from pdxfer.build import build_prefill_cache

dev, host = build_prefill_cache(device="meta")
L = dev.num_layers
assert host.num_layers == L == len(dev.k_cache) == len(host.k_cache)
dev_tok = dev.num_blocks * dev.block_size
host_tok = host.max_tokens
want = {"k_cache": (1024, 1024), "v_cache": (1024, 1024), "k_scale": (32, 64), "v_scale": (32, 64)}
for name, (h, d) in want.items():
    expect(f"dev {name}", bptl(getattr(dev, name), dev_tok, L), d)
    expect(f"host {name}", bptl(getattr(host, name), host_tok, L), h)
print("OK")
