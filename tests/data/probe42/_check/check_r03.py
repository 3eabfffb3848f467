import dataclasses

from common import add_tree, per_token, verify

add_tree("r03")
from latentd.config import MLACacheConfig  # noqa: E402
from latentd.runtime import open_vaults  # noqa: E402

cfg = dataclasses.replace(MLACacheConfig(), device="meta", offload_device="meta")
dev, off = open_vaults(cfg)
dslots = dev.kv_buffer[0].shape[0]
assert dslots == cfg.max_tokens + 1
oslots = off.kv_buffer.shape[1]
assert oslots == cfg.offload_tokens
measured = {"kv_buffer": (per_token(off.kv_buffer, oslots), per_token(dev.kv_buffer, dslots))}
verify("r03", dev, off, open_vaults, measured)
