import common

common.add_tree("r04")
from nas_infer.scheduler import create_pools


def present(layers):
    return [t for t in layers if t is not None]


dev, swap = create_pools(device="meta", host_device="meta")
measured = {
    "k_layers": (common.per_token(present(swap.k_layers), swap.capacity),
                 common.per_token(present(dev.k_layers), dev.capacity)),
    "v_layers": (common.per_token(present(swap.v_layers), swap.capacity),
                 common.per_token(present(dev.v_layers), dev.capacity)),
}
common.verify("r04", dev, swap, create_pools, measured)
