from pd_disagg.kv_pool import PagedKVPool
from pd_disagg.layout import KVLayout
from pd_disagg.transfer import KVTransferBuffer

QWEN25_72B = {
    "hidden_size": 8192,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "num_hidden_layers": 80,
    "torch_dtype": "bfloat16",
}

DEFAULTS = {
    "tp_size": 2,
    "pp_size": 1,
    "kv_cache_dtype": "fp8_e4m3",
    "page_size": 32,
    "num_pages": 24_576,
    "max_transfer_tokens": 65_536,
}


def build_caches(device="cuda", hf_config=QWEN25_72B, **overrides):
    opts = {**DEFAULTS, **overrides}
    layout = KVLayout.from_hf_config(
        hf_config, tp_size=opts["tp_size"], pp_size=opts["pp_size"],
        kv_cache_dtype=opts["kv_cache_dtype"], page_size=opts["page_size"])
    pool = PagedKVPool(layout, opts["num_pages"], device=device)
    staging = KVTransferBuffer(layout, opts["max_transfer_tokens"], device=device)
    return pool, staging
