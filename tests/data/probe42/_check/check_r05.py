import dataclasses

from common import add_tree, per_token, verify

add_tree("r05")
from windowkv.scheduler import HybridModelConfig  # noqa: E402
from windowkv.scheduler import init_memory_pools  # noqa: E402

cfg = dataclasses.replace(HybridModelConfig(), device="meta", host_device="meta")
dev, host = init_memory_pools(cfg)
assert cfg.full_attention_layer_ids == [5, 11, 17, 23]
dslots = dev.size + 1
hslots = host.size
measured = {}
for a in ("k_buffer", "v_buffer"):
    dbufs = [b for b in getattr(dev, a) if b is not None]
    assert len(dbufs) == 4 and all(b.shape[0] == dslots for b in dbufs)
    measured[a] = (per_token(getattr(host, a), hslots), per_token(dbufs, dslots))
verify("r05", dev, host, init_memory_pools, measured)
