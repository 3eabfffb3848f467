"""q06: both sides built through the tree's own construction code on the meta device."""
from _util import use_tree, verify

use_tree("q06")

from owlserve.bootstrap import setup_kv  # noqa: E402

DEV, MIR = setup_kv(device="meta", wire_device="meta")
REGION = MIR.payload
LAYERS = DEV.layer_count
DEV_TOKENS = DEV.max_tokens
MIR_TOKENS = MIR.slots_on_wire
SIDE = "wire"
PAIRS = {"kcache": "wire_k", "vcache": "wire_v"}
EXPECTED = {"kcache": (512, 512), "vcache": (2048, 512)}
EXPECT_VERDICT = "BUG"

verify("q06", DEV, MIR, REGION, LAYERS, DEV_TOKENS, MIR_TOKENS, SIDE, PAIRS, EXPECTED,
       EXPECT_VERDICT)
