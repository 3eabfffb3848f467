import torch
from .pool import MHATokenPool

if __name__ == "__main__":
    p = MHATokenPool(64, 8, 128, 4, torch.bfloat16, "meta")
    print(p.k_buffer[0][0].numel() * 2, p.fp8.k_cache[0][0].numel() * 1)
