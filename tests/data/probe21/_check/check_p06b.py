import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p06b"))
from _util import bptl, verify  # noqa: E402
from llamakv.cli import load_context  # noqa: E402

dev, other = load_context(device="meta")
verify("p06b", "spill", {
    "k_l": (bptl(other.k_l, other.n_tokens, other.n_layer), bptl(dev.k_l, dev.n_ctx, dev.n_layer)),
    "v_l": (bptl(other.v_l, other.n_tokens, other.n_layer), bptl(dev.v_l, dev.n_ctx, dev.n_layer)),
})
