from _util import use_tree, verify

use_tree("r01")
from kvtier.bootstrap import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", host_device="meta")
verify("r01", dev, mir, None, layers=dev.layer_num, dev_tokens=dev.size + 1,
       mir_tokens=mir.size, side="offload", pairs={"kv_buffer": "kv_buffer"},
       expected={"kv_buffer": (128, 256)}, expect_verdict="BUG")
