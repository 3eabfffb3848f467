import json

DEEPSEEK_V32_KV = """
{
  "model_type": "deepseek_v32",
  "num_hidden_layers": 61,
  "kv_lora_rank": 512,
  "qk_rope_head_dim": 64,
  "index_head_dim": 128,
  "index_block_size": 128,
  "kv_dtype": "bfloat16",
  "page_size": 64,
  "prefill_pages": 1024,
  "decode_pages": 4096
}
"""


def load_kv_config(text: str = DEEPSEEK_V32_KV, **overrides) -> dict:
    cfg = json.loads(text)
    cfg.update(overrides)
    return cfg


def latent_dim(cfg: dict) -> int:
    return cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"]
