import json

from mlc_serve.kv import create_kv_cache
from mlc_serve.kv.draft import DraftKVCache
from mlc_serve.kv.registry import PagedKVCacheSpec

MLC_CHAT_CONFIG = json.loads("""
{
  "model_type": "llama",
  "model_config": {
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "hidden_size": 4096
  },
  "kv_cache": {"page_size": 16, "dtype": "float16", "num_pages": 8192},
  "speculative": {"mode": "layer_skip", "exit_layer": 8, "num_pages": 2048}
}
""")


def init_kv_caches(device="cuda", chat_config=MLC_CHAT_CONFIG):
    mc, kc, sc = chat_config["model_config"], chat_config["kv_cache"], chat_config["speculative"]
    spec = PagedKVCacheSpec(
        num_hidden_layers=mc["num_hidden_layers"],
        num_key_value_heads=mc["num_key_value_heads"],
        head_dim=mc["head_dim"],
        page_size=kc["page_size"],
        dtype=kc["dtype"],
    )
    target = create_kv_cache("paged", spec, kc["num_pages"], device)
    draft = DraftKVCache.from_target(target, sc["exit_layer"], sc["num_pages"], device)
    return target, draft
