from _util import use_tree, verify

use_tree("r03")
from mla_store.runtime import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", host_device="meta")
assert mir.num_layers == dev.num_layers
verify("r03", dev, mir, None, layers=dev.num_layers, dev_tokens=dev.max_tokens,
       mir_tokens=mir.max_tokens, side="host", pairs={"kv_buffer": "kv_buffer"},
       expected={"kv_buffer": (160, 160)}, expect_verdict="CORRECT")
