import itertools
from common import setup, bpt, compare

setup("r03")
from pyllama.kv_cache import llama_init_kv
from pyllama.ggml_types import GGMLType
from pyllama.hparams import LlamaContextParams, LlamaHParams


def measure(kv, st):
    out = {}
    for name in ("k_l", "v_l"):
        d, h = getattr(kv, name), getattr(st, name)
        assert len(d) == kv.n_layer
        out[name] = (bpt([(h, st.n_tokens_max, len(h))]), bpt([(d, kv.size, kv.n_layer)]))
    return out


kv, st = llama_init_kv(device="meta")
measured = measure(kv, st)

n = 0
for tk, tv, fa, (hk, hv, nkv) in itertools.product(
        GGMLType, GGMLType, (False, True), [(None, None, 8), (64, 64, 1), (192, 128, 4), (128, None, 2)]):
    hp = LlamaHParams(n_layer=3, n_head_kv=nkv, n_embd_head_k=hk, n_embd_head_v=hv)
    cp = LlamaContextParams(n_ctx=256, type_k=tk, type_v=tv, flash_attn=fa)
    try:
        k, s = llama_init_kv(device="meta", hparams=hp, cparams=cp)
    except ValueError:
        continue
    for name, (o, d) in measure(k, s).items():
        assert o == d, (tk, tv, fa, hk, hv, nkv, name, o, d)
    n += 1
assert n > 100

compare("r03", measured)
