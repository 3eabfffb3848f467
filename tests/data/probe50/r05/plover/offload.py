import torch

_ITEMSIZE = {"bfloat16": 2, "float16": 2, "float32": 4, "fp8_e4m3": 1, "fp8_e5m2": 1}


def kv_row_bytes(cfg, cache_args):
    """Bytes of one token's K (or V) for one layer on this rank."""
    name = cfg.torch_dtype if cache_args.kv_cache_dtype == "auto" else cache_args.kv_cache_dtype
    per_head = cfg.hidden_size // cfg.num_attention_heads
    heads = cfg.num_key_value_heads // cache_args.tp_size
    return heads * per_head * _ITEMSIZE[name]


class HostOffloadCache:
    """CPU tier for evicted prefixes.  Mirrors every layer with the same token count,
    sized from a GiB budget."""

    def __init__(self, cfg, cache_args, host_device="cpu"):
        self.row_bytes = kv_row_bytes(cfg, cache_args)
        self.num_layers = cfg.num_hidden_layers
        budget = int(cache_args.offload_gib * (1 << 30))
        self.num_tokens = budget // (2 * self.num_layers * self.row_bytes)
        self.num_tokens -= self.num_tokens % cache_args.page_size
        pin = host_device == "cpu" and torch.cuda.is_available()
        self.k_host = torch.empty((self.num_layers, self.num_tokens, self.row_bytes),
                                  dtype=torch.uint8, device=host_device, pin_memory=pin)
        self.v_host = torch.empty_like(self.k_host)
