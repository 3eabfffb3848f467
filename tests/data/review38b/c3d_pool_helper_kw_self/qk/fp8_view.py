import torch


class Fp8KernelCache:
    """fp8 copy of the pool's K/V that the fp8 attention kernel reads; refreshed per step."""

    def __init__(self, pool):
        ref = pool.k_buffer[0]
        rows, heads, dim = ref.shape
        self.k_cache = [torch.zeros((rows, heads, dim), dtype=torch.float8_e4m3fn, device=ref.device) for _ in range(len(pool.k_buffer))]
        self.v_cache = [torch.zeros((rows, heads, dim), dtype=torch.float8_e4m3fn, device=ref.device) for _ in range(len(pool.v_buffer))]
