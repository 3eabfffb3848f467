"""q04: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q04")

from ferrykv.manager import create_cache_pair  # noqa: E402

DEV, MIR = create_cache_pair(device="meta", host_device="meta")
REGION = MIR.backing
LAYERS = DEV.layout.num_layers
DEV_TOKENS = DEV.max_blocks * DEV.layout.tokens_per_block
MIR_TOKENS = MIR.host_blocks * MIR.layout.tokens_per_block
SIDE = "mirror"
PAIRS = {"keys": "host_k", "values": "host_v"}
EXPECTED = {"keys": (1536, 1536), "values": (1536, 1024)}
EXPECT_VERDICT = "BUG"

verify("q04", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
