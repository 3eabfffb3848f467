import os

for _k in [k for k in os.environ if k.startswith("KVT_")]:
    del os.environ[_k]

import common

common.add_tree("r03")
from kvtiers.engine import init_kv_tiers

dev, host = init_kv_tiers(device="meta", host_device="meta")
dev_tokens = dev.num_blocks * dev.block_tokens
host_tokens = host.num_blocks * host.block_tokens
measured = {
    "k_blocks": (common.per_token(host.k_blocks, host_tokens),
                 common.per_token(dev.k_blocks, dev_tokens)),
    "v_blocks": (common.per_token(host.v_blocks, host_tokens),
                 common.per_token(dev.v_blocks, dev_tokens)),
}
common.verify("r03", dev, host, init_kv_tiers, measured)
