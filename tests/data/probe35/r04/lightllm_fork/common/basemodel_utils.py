import torch

_DTYPE = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


def get_dtype(data_type: str) -> torch.dtype:
    return _DTYPE[data_type]


def get_head_dim(network_config: dict) -> int:
    if "head_dim" in network_config:
        return network_config["head_dim"]
    return network_config["hidden_size"] // network_config["num_attention_heads"]


def get_kv_head_num(network_config: dict, world_size: int) -> int:
    kv = network_config.get("num_key_value_heads", network_config["num_attention_heads"])
    return max(1, kv // world_size)
