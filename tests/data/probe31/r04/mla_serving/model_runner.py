import copy
from typing import Any, Dict, Optional, Tuple

import torch

from mla_serving.configs.deepseek import DEEPSEEK_V2_LITE
from mla_serving.mem_cache.host_pool import MLATokenToKVPoolHost
from mla_serving.mem_cache.memory_pool import MLATokenToKVPool

_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def init_memory_pool(
    config: Optional[Dict[str, Any]] = None,
    device: str = "cuda",
) -> Tuple[MLATokenToKVPool, MLATokenToKVPoolHost]:
    """Create the device token pool and its host-memory tier."""
    config = copy.deepcopy(DEEPSEEK_V2_LITE if config is None else config)
    model, server = config["model"], config["server"]
    kv_dtype = server["kv_cache_dtype"]
    dtype = _DTYPES[model["torch_dtype"] if kv_dtype == "auto" else kv_dtype]

    pool = MLATokenToKVPool(
        size=server["max_total_tokens"],
        page_size=server["page_size"],
        dtype=dtype,
        kv_lora_rank=model["kv_lora_rank"],
        qk_rope_head_dim=model["qk_rope_head_dim"],
        layer_num=model["num_hidden_layers"],
        device=device,
    )
    hicache = server["hicache"]
    host_pool = MLATokenToKVPoolHost(
        pool,
        host_to_device_ratio=hicache["ratio"],
        pin_memory=hicache["pin_memory"],
    )
    return pool, host_pool
