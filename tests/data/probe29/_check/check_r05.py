from _util import use_tree, verify

use_tree("r05")
from fp8kv.engine_setup import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", host_device="meta")
assert mir.n_layers == dev.n_layers
verify("r05", dev, mir, None, layers=dev.n_layers, dev_tokens=dev.num_slots,
       mir_tokens=mir.num_slots, side="host",
       pairs={"data": "data", "scales": "scales"},
       expected={"data": (512, 512), "scales": (0, 16)}, expect_verdict="BUG")
