import common

common.add_tree("r01")
from ssmserve.runtime import build_state_caches

dev, host = build_state_caches(device="meta", host_device="meta")
measured = {
    "conv_state": (common.per_token(host.conv, host.capacity),
                   common.per_token(dev.conv_state, dev.max_seqs)),
    "ssm_state": (common.per_token(host.temporal, host.capacity),
                  common.per_token(dev.ssm_state, dev.max_seqs)),
}
common.verify("r01", dev, host, build_state_caches, measured)
