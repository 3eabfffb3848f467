import common

common.add_tree("r05")
from fusedkv.worker import make_kv_storage

dev, mirror = make_kv_storage(device="meta", host_device="meta")
measured = {
    "kv": (common.per_token(mirror.kv_tokens, mirror.num_tokens),
           common.per_token(dev.kv, dev.num_tokens)),
}
common.verify("r05", dev, mirror, make_kv_storage, measured)
