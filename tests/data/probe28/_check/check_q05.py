"""q05: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q05")

from kestrel.runtime import KVRuntime  # noqa: E402

_rt = KVRuntime.build(device="meta", shadow_device="meta")
DEV, MIR = _rt.store, _rt.shadow
REGION = MIR.flat
LAYERS = DEV.cfg.n_layers
DEV_TOKENS = DEV.num_slots
MIR_TOKENS = MIR.num_slots
SIDE = "shadow"
PAIRS = {"k_data": "shadow_k", "v_data": "shadow_v", "k_scale": "shadow_ks", "v_scale": "shadow_vs"}
EXPECTED = {"k_data": (256, 256), "v_data": (256, 256), "k_scale": (16, 16), "v_scale": (16, 16)}
EXPECT_VERDICT = "CORRECT"

verify("q05", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
