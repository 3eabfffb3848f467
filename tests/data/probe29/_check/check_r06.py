from _util import use_tree, verify

use_tree("r06")
from pagedkv.engine import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", swap_device="meta")
assert mir.depth == dev.depth
verify("r06", dev, mir, None, layers=dev.depth, dev_tokens=dev.pool_size,
       mir_tokens=mir.pool_size, side="swap",
       pairs={"key_pages": "key_pages", "value_pages": "value_pages"},
       expected={"key_pages": (128, 128), "value_pages": (128, 128)}, expect_verdict="CORRECT")
