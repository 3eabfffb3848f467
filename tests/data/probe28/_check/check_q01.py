"""q01: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q01")

from tessellate.assemble import assemble_kv  # noqa: E402

DEV, MIR = assemble_kv(device="meta", host_device="meta")
REGION = MIR.arena_bytes
LAYERS = DEV.geom.layers
DEV_TOKENS = DEV.num_pages * DEV.geom.page_tokens
MIR_TOKENS = MIR.num_pages * MIR.geom.page_tokens
SIDE = "staging"
PAIRS = {"key_pages": "k_views", "value_pages": "v_views"}
EXPECTED = {"key_pages": (1024, 1024), "value_pages": (1024, 1024)}
EXPECT_VERDICT = "CORRECT"

verify("q01", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
