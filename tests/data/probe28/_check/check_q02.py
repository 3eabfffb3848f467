"""q02: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q02")

from quillkv.engine_setup import init_kv_storage  # noqa: E402

DEV, MIR = init_kv_storage(device="meta", spill_device="meta")
REGION = MIR.buffer
LAYERS = DEV.spec.num_hidden_layers
DEV_TOKENS = DEV.num_blocks * DEV.spec.block_size
MIR_TOKENS = MIR.num_blocks * MIR.spec.block_size
SIDE = "spill"
PAIRS = {"k_store": "k_spill", "v_store": "v_spill", "scale_store": "scale_spill"}
EXPECTED = {"k_store": (512, 512), "v_store": (512, 512), "scale_store": (16, 32)}
EXPECT_VERDICT = "BUG"

verify("q02", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
