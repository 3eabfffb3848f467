from _util import use_tree, verify

use_tree("r08")
from qkv_offload.build import build_kv  # noqa: E402

dev, mir = build_kv(device="meta", offload_device="meta")
assert mir.num_layers == dev.num_layers
verify("r08", dev, mir, None, layers=dev.num_layers, dev_tokens=dev.max_tokens,
       mir_tokens=mir.max_tokens, side="offload",
       pairs={"k_buffer": "k_data", "v_buffer": "v_data", "k_scale": "k_scale", "v_scale": "v_scale"},
       expected={"k_buffer": (256, 256), "v_buffer": (256, 256), "k_scale": (8, 8), "v_scale": (8, 8)},
       expect_verdict="CORRECT")
