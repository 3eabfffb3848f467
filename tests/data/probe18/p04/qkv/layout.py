import torch

DEFAULT_CFG = {
    "n_layers": 40,
    "kv_heads": 8,
    "head_dim": 128,
    "quant_group": 32,
    "scale_dtype": "float32",
}


def buffer_layout(cfg):
    """name -> (per-token row shape, dtype) for one layer."""
    h, d, g = cfg["kv_heads"], cfg["head_dim"], cfg["quant_group"]
    scale_dt = getattr(torch, cfg["scale_dtype"])
    return {
        "k_q": ((h, d), torch.int8),
        "v_q": ((h, d), torch.int8),
        "k_scale": ((h, d // g), scale_dt),
        "v_scale": ((h, d // g), scale_dt),
    }


def token_bytes(cfg):
    total = 0
    for shape, dt in buffer_layout(cfg).values():
        n = 1
        for s in shape:
            n *= s
        total += n * torch.empty((), dtype=dt).element_size()
    return total * cfg["n_layers"]
