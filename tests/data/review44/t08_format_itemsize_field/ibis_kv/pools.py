from dataclasses import dataclass

import torch


@dataclass
class PackedFormat:
    """KV packed as raw bytes: `itemsize` bytes per element (2 for bf16, 1 for fp8)."""
    num_kv_heads: int
    head_dim: int
    itemsize: int = 2


class IbisTokenToKVPool:
    def __init__(self, size: int, layer_num: int, fmt: PackedFormat, device: str = "cuda"):
        self.size = size
        self.layer_num = layer_num
        self.fmt = fmt
        row_bytes = fmt.num_kv_heads * fmt.head_dim * fmt.itemsize
        self.kv_bytes = [torch.empty((size + 1, 2, row_bytes), dtype=torch.uint8, device=device)
                         for _ in range(layer_num)]


class IbisHostKVPool:
    def __init__(self, device_pool: IbisTokenToKVPool, size: int, device: str = "cpu"):
        fmt = device_pool.fmt
        self.size = size
        self.layer_num = device_pool.layer_num
        self.kv_bytes = torch.empty((self.layer_num, size, 2, fmt.num_kv_heads * fmt.head_dim * 2),
                                    dtype=torch.uint8, device=device)


def build(hf: dict, args, device="cuda"):
    fmt = PackedFormat(hf["num_key_value_heads"] // args.tp_size, hf["head_dim"],
                       itemsize=1 if args.kv_cache_dtype.startswith("fp8") else 2)
    dev = IbisTokenToKVPool(args.max_total_tokens, hf["num_hidden_layers"], fmt, device=device)
    host = IbisHostKVPool(dev, args.host_tokens)
    return dev, host
