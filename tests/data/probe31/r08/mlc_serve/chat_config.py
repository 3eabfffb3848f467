import json
from typing import Any, Dict, Optional

_DEFAULT_CHAT_CONFIG = """
{
  "model_type": "qwen2",
  "quantization": "q4f16_1",
  "model_config": {
    "hidden_size": 2048,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "num_hidden_layers": 4,
    "rope_theta": 1000000.0
  },
  "context_window_size": 512,
  "prefill_chunk_size": 120,
  "sliding_window_size": -1,
  "attention_sink_size": 0,
  "tensor_parallel_shards": 2,
  "kv_cache": {
    "page_size": 16,
    "kv_dtype": "e4m3_float8",
    "scale_dtype": "float16",
    "max_num_sequence": 4
  }
}
"""


def load_chat_config(text: Optional[str] = None) -> Dict[str, Any]:
    return json.loads(_DEFAULT_CHAT_CONFIG if text is None else text)
