import torch


class ShardedKVPool:
    """Per-rank device pool: kv heads are split across the tensor-parallel group."""

    def __init__(self, size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.k_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]
        self.v_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]

    @classmethod
    def from_config(cls, opts):
        if opts.kv_cache_dtype == "auto":
            dtype = opts.model_dtype
        elif opts.kv_cache_dtype in ("fp8", "fp8_e4m3"):
            dtype = torch.float8_e4m3fn
        elif opts.kv_cache_dtype == "fp8_e5m2":
            dtype = torch.float8_e5m2
        else:
            raise ValueError(opts.kv_cache_dtype)
        # with more ranks than kv heads every rank keeps one replicated head
        head_num = max(1, opts.num_kv_heads // opts.tp_size)
        return cls(opts.max_tokens, dtype, head_num, opts.head_dim, opts.num_layers, opts.device)
