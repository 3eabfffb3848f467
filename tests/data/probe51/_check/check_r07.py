import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from lumen_disagg.handshake import connect_pools

hf = {
    "architectures": ["Phi3ForCausalLM"], "model_type": "phi3",
    "hidden_size": 3072, "intermediate_size": 8192, "num_attention_heads": 32,
    "num_key_value_heads": 32, "num_hidden_layers": 32, "max_position_embeddings": 131072,
    "sliding_window": 262144, "torch_dtype": "bfloat16",
}
args = SimpleNamespace(tp_size=2, kv_cache_dtype="auto", max_total_tokens=150_000,
                       page_size=16, decode_num_pages=12_000)
pre, dec = connect_pools(hf, args, device="meta")
assert len(pre.kv_slabs) == len(dec.pages) == 32
d, o = pre.kv_slabs[0], dec.pages[0]
measured = {"kv_slabs": (per_token(o, o.shape[0] * o.shape[2]), per_token(d, d.shape[0]))}
verify("r07", pre, dec, connect_pools, measured)
