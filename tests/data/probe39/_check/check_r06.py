import common

common.add_tree("r06")
from qkv_runtime.bootstrap import bootstrap_kv

dev, spill = bootstrap_kv(device="meta", host_device="meta")
measured = {
    name: (common.per_token(spill.tensors[name], spill.slots),
           common.per_token(getattr(dev, name), dev.slots))
    for name in ("k_q", "v_q", "k_scale", "v_scale")
}
common.verify("r06", dev, spill, bootstrap_kv, measured)
