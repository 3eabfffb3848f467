from _util import use_tree, verify

use_tree("r02")
from hydra_cache.wiring import make_pair  # noqa: E402

dev, mir = make_pair(device="meta", recv_device="meta")
verify("r02", dev, mir, None, layers=dev.spec.n_layer, dev_tokens=dev.spec.token_capacity,
       mir_tokens=mir.capacity, side="wire", pairs={"kv_data": "pages"},
       expected={"kv_data": (512, 512)}, expect_verdict="CORRECT")
