from _util import use_tree, verify

use_tree("r04")
from swapkit.factory import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", swap_device="meta")
assert mir.depth == dev.depth
verify("r04", dev, mir, None, layers=dev.depth, dev_tokens=dev.capacity,
       mir_tokens=mir.capacity, side="swap",
       pairs={"k_store": "k_store", "v_store": "v_store"},
       expected={"k_store": (1024, 512), "v_store": (512, 512)}, expect_verdict="BUG")
