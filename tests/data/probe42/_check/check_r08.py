import dataclasses

from common import add_tree, per_token, verify

add_tree("r08")
from kvstream.config import StreamConfig  # noqa: E402
from kvstream.launch import build_rings  # noqa: E402

cfg = dataclasses.replace(StreamConfig(), device="meta", send_device="meta")
dev, snd = build_rings(cfg)
dslots = dev.num_pages * dev.page_size
assert dslots == dev.k_data[0].shape[0] * dev.k_data[0].shape[1]
sslots = snd.k_data.shape[0] * snd.k_data.shape[2]
assert sslots == cfg.send_pages * cfg.page_size
measured = {a: (per_token(getattr(snd, a), sslots), per_token(getattr(dev, a), dslots))
            for a in ("k_data", "v_data", "k_scale", "v_scale")}
verify("r08", dev, snd, build_rings, measured)

# the unquantized mode agrees
dev2, snd2 = build_rings(dataclasses.replace(cfg, kv_quant="none"))
assert per_token(snd2.k_data, sslots) == per_token(dev2.k_data, dslots)
print("OK")
