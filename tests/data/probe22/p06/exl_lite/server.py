"""Chat backend: one Q4 cache on the GPU, idle sessions parked on the host."""
import os

from .cache import ExLlamaV2Cache, ExLlamaV2Cache_Q4, ExLlamaV2Cache_Q8
from .config import ExLlamaV2Config
from .host_mirror import HostCacheMirror
from .model import ExLlamaV2

CONFIG_JSON = """{
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "num_hidden_layers": 32,
  "max_position_embeddings": 8192
}"""

CACHE_CLASSES = {"FP16": ExLlamaV2Cache, "Q4": ExLlamaV2Cache_Q4, "Q8": ExLlamaV2Cache_Q8}


def load_backend(cache_mode: str = "Q4", batch_size: int = 4, max_seq_len: int = -1,
                 parked_sessions: int = 16, device: str = None, host_device: str = "cpu"):
    config = ExLlamaV2Config(os.environ.get("MODEL_DIR", "/models/llama3-8b-exl2"))
    config.prepare(CONFIG_JSON)
    model = ExLlamaV2(config)
    cache = CACHE_CLASSES[cache_mode](model, batch_size=batch_size, max_seq_len=max_seq_len,
                                      fixed_device=device)
    mirror = HostCacheMirror(cache, parked_sessions, device=host_device)
    return model, cache, mirror
