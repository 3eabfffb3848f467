import dataclasses

from common import add_tree, per_token, verify

add_tree("r04")
from swapyard.base import DepotConfig  # noqa: E402
from swapyard.engine import make_depots  # noqa: E402

cfg = dataclasses.replace(DepotConfig(), device="meta", swap_device="meta", pin_memory=False)
dev, swap = make_depots(cfg)
dslots = dev.k_data[0].shape[0]
assert dslots == cfg.max_tokens + 1
sslots = swap.k_data.shape[1]
assert sslots == cfg.swap_space_tokens
measured = {a: (per_token(getattr(swap, a), sslots), per_token(getattr(dev, a), dslots))
            for a in ("k_data", "v_data", "k_scale", "v_scale")}
verify("r04", dev, swap, make_depots, measured)
