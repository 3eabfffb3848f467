import torch

DEFAULT_GROUP = 64


class Int8OffloadStore:
    """Cold blocks in host memory, kept in quantized form (no dequant on the way out)."""

    def __init__(self, s):
        self.num_blocks = s.offload_blocks
        self.block_tokens = s.block_tokens
        group = getattr(s, "quant_group", DEFAULT_GROUP)
        dev = s.offload_device
        base = [s.num_layers, self.num_blocks, s.block_tokens, s.num_kv_heads]
        self.k_q = torch.full(base + [s.head_dim], 0, dtype=s.qdtype, device=dev)
        self.v_q = torch.full(base + [s.head_dim], 0, dtype=s.qdtype, device=dev)
        self.k_scale = torch.full(base + [s.head_dim // group], 1.0, dtype=s.scale_dtype, device=dev)
        self.v_scale = torch.full(base + [s.head_dim // group], 1.0, dtype=s.scale_dtype, device=dev)
        self.resident = {}

    def put(self, cache, gpu_block, host_block):
        for dst, src in zip((self.k_q, self.v_q, self.k_scale, self.v_scale),
                            cache.block_views(gpu_block)):
            dst[:, host_block].copy_(src, non_blocking=True)
        self.resident[gpu_block] = host_block
