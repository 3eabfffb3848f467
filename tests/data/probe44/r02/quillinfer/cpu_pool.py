import torch

from .settings import KV_STORAGE, SCALE_DTYPE


class HostSpillPool:
    """Spill target for evicted prefixes; stored layer-major."""

    def __init__(self, s):
        self.tokens = s.cpu_tokens
        dtype = KV_STORAGE[s.kv_cache_dtype]
        L, H, D = s.num_layers, s.num_kv_heads, s.head_dim
        self.k = torch.empty((L, self.tokens, H, D), dtype=dtype, device=s.cpu_device)
        self.v = torch.empty((L, self.tokens, H, D), dtype=dtype, device=s.cpu_device)
        self.ks = self.vs = None
        if s.quantized:
            n_groups = D // s.weight_block
            self.ks = torch.empty((L, self.tokens, H, n_groups), dtype=SCALE_DTYPE,
                                  device=s.cpu_device)
            self.vs = torch.empty_like(self.ks)

    def spill(self, gpu_pool, cpu_idx, gpu_idx):
        for i in range(self.k.shape[0]):
            k, v, ks, vs = gpu_pool.layer(i)
            self.k[i, cpu_idx] = k[gpu_idx].cpu()
            self.v[i, cpu_idx] = v[gpu_idx].cpu()
            if ks is not None:
                self.ks[i, cpu_idx] = ks[gpu_idx].cpu()
                self.vs[i, cpu_idx] = vs[gpu_idx].cpu()
