import torch


def resolve_kv_dtype(name, model_dtype):
    if name == "auto":
        return model_dtype
    elif name == "fp8_e5m2":
        return torch.float8_e5m2
    elif name in ("fp8", "fp8_e4m3"):
        return torch.float8_e4m3fn
    elif name == "bf16":
        return torch.bfloat16
    else:
        raise ValueError(f"unsupported kv_cache_dtype {name!r}")


class TokenKVBank:
    def __init__(self, size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        # slot 0 is the padding slot written by dummy tokens
        self.k_buffer = [
            torch.empty((size + 1, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.empty((size + 1, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
