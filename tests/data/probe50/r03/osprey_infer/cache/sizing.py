import torch


def dtype_from_name(name):
    if name in ("bfloat16", "bf16"):
        return torch.bfloat16
    elif name in ("float16", "fp16", "half"):
        return torch.float16
    elif name in ("fp8_e4m3", "fp8"):
        return torch.float8_e4m3fn
    elif name == "fp8_e5m2":
        return torch.float8_e5m2
    elif name == "float32":
        return torch.float32
    raise ValueError(name)


def bytes_per_element(name):
    if name.startswith("fp8"):
        return 1
    elif name in ("float32", "fp32"):
        return 4
    else:
        return 2


def pp_layer_range(num_layers, pp_size, pp_rank):
    """Split layers so that earlier ranks take the remainder (embedding rank is lighter)."""
    base, extra = divmod(num_layers, pp_size)
    start = pp_rank * base + min(pp_rank, extra)
    end = start + base + (1 if pp_rank < extra else 0)
    return start, end
