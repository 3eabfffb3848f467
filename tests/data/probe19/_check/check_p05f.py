from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import add_tree, per_token_layer, verify  # noqa: E402

add_tree("p05f")
from disagg_mla import build_pair  # noqa: E402

dec, pre = build_pair(decode_device="meta", prefill_device="meta")
assert dec.depth == pre.depth == len(dec.latent) == len(pre.latent) == 61
d_tok = dec.num_pages * dec.page_size
p_tok = pre.num_pages * pre.page_size
figures = ({
    "latent": (per_token_layer(pre.latent, p_tok, pre.depth),
               per_token_layer(dec.latent, d_tok, dec.depth)),
    "index_k": (per_token_layer(pre.index_k, p_tok, pre.depth),
                per_token_layer(dec.index_k, d_tok, dec.depth)),
})

assert all(h == d for h, d in figures.values()), figures
print("OK p05f")
