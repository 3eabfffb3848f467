import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p09f"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from pdsplit.decode_pool import build_disagg_pair

pre, dec = build_disagg_pair(prefill_device="meta", decode_device="meta")
L = pre.cfg.num_hidden_layers
for name, exp in (("k_cache", (1024, 1024)), ("v_cache", (1024, 1024)), ("kv_scales", (64, 64))):
    h = bptl(getattr(dec, name), dec.num_tokens, L)
    d = bptl(getattr(pre, name), pre.num_tokens, L)
    print(name, "decode", h, "prefill", d)
    assert (h, d) == exp
print("OK p09f")
