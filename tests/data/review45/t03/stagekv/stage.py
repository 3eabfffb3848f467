"""Host staging of evicted pages, shaped from the GPU cache it is given."""
import torch


class EvictionStage:
    def __init__(self, gpu_cache, host_tokens: int, device="cpu"):
        heads, dim = gpu_cache.kv_heads, gpu_cache.head_dim
        n = gpu_cache.layer_num
        self.k_stage = [
            torch.empty((host_tokens, heads, dim), dtype=gpu_cache.dtype, device=device)
            for _ in range(n)
        ]
        self.v_stage = [
            torch.empty((host_tokens, heads, dim // 2), dtype=gpu_cache.dtype, device=device)
            for _ in range(n)
        ]
