"""q03: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q03")

from marrow.setup import KVTransferSetup  # noqa: E402

_s = KVTransferSetup.create(device="meta", registry_device="meta")
DEV, MIR = _s.pool, _s.registry
REGION = MIR.region
LAYERS = DEV.layer_num
DEV_TOKENS = DEV.size + DEV.page_size
MIR_TOKENS = MIR.num_tokens
SIDE = "region"
PAIRS = {"k_buffer": "k_regions", "v_buffer": "v_regions"}
EXPECTED = {"k_buffer": (2048, 2048), "v_buffer": (2048, 2048)}
EXPECT_VERDICT = "CORRECT"

verify("q03", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
