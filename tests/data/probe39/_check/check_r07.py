import common

common.add_tree("r07")
from speech_serve.engine import build_encoder_kv

dev, off = build_encoder_kv(device="meta", host_device="meta")
measured = {
    "cross_k": (common.per_token(off.k_host, off.num_frames),
                common.per_token(dev.cross_k, dev.num_frames)),
    "cross_v": (common.per_token(off.v_host, off.num_frames),
                common.per_token(dev.cross_v, dev.num_frames)),
}
common.verify("r07", dev, off, build_encoder_kv, measured)
