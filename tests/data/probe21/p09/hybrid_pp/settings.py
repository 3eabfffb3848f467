import os

JAMBA_15_MINI = {
    "architectures": ["JambaForCausalLM"],
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "attn_layer_period": 8,
    "attn_layer_offset": 4,
    "torch_dtype": "bfloat16",
}

KV_CACHE_DTYPE = os.environ.get("KV_CACHE_DTYPE", "float8_e4m3fn")
PP_SIZE = int(os.environ.get("PP_SIZE", "2"))
KV_SLOTS = int(os.environ.get("KV_SLOTS", "65536"))
MIGRATION_SLOTS = int(os.environ.get("MIGRATION_SLOTS", "8192"))


def attention_layers(hf: dict, start: int, end: int):
    period, offset = hf["attn_layer_period"], hf["attn_layer_offset"]
    return [i for i in range(start, end) if i % period == offset]


def stage_range(hf: dict, pp_rank: int, pp_size: int = PP_SIZE):
    n = hf["num_hidden_layers"]
    per = (n + pp_size - 1) // pp_size
    return pp_rank * per, min(n, (pp_rank + 1) * per)
