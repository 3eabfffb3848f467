from _util import use_tree, verify

use_tree("r07")
from pdxfer.bootstrap import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", staging_device="meta")
assert mir.layer_ids == dev.layer_ids
verify("r07", dev, mir, None, layers=len(dev.layer_ids), dev_tokens=dev.max_total_tokens + 1,
       mir_tokens=mir.num_tokens, side="staging", pairs={"kv_buffer": "buf"},
       expected={"kv_buffer": (224, 160)}, expect_verdict="BUG")
