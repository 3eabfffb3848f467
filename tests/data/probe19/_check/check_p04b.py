from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import add_tree, per_token_layer, verify  # noqa: E402

add_tree("p04b")
from lmkv import CacheEngine, default_args  # noqa: E402

args = default_args()
eng = CacheEngine(args, device="meta", host_device="meta")
g, h = eng.gpu, eng.host
L = args.num_layers
g_tok = g.num_blocks * g.block_size
h_tok = h.num_blocks * h.block_size
out = {}
for name in ("k_caches", "v_caches", "k_scales_zeros", "v_scales_zeros"):
    assert len(getattr(g, name)) == len(getattr(h, name)) == L
    out[name] = (per_token_layer(getattr(h, name), h_tok, L),
                 per_token_layer(getattr(g, name), g_tok, L))
figures = (out)

for k in ("k_caches", "v_caches"):
    assert figures[k][0] == figures[k][1], figures
for k in ("k_scales_zeros", "v_scales_zeros"):
    assert figures[k][0] == 2 * figures[k][1], figures
print("OK p04b")
