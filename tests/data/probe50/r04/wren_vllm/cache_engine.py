import torch

from wren_vllm.utils import divide, kv_cache_torch_dtype


class GpuBlockCache:
    """Per-layer paged KV cache, K and V stacked on dim 0:
    [2, num_blocks, block_size, num_kv_heads_per_rank, head_dim]."""

    def __init__(self, spec, parallel, args, device="cuda"):
        self.block_size = args.block_size
        self.num_blocks = args.num_gpu_blocks
        self.head_size = spec.head_dim
        self.num_kv_heads = divide(spec.num_kv_heads, parallel.tensor_parallel_size)
        self.start_layer, self.end_layer = parallel.layer_slice(spec.num_layers)
        self.dtype = kv_cache_torch_dtype(args.kv_cache_dtype, args.dtype)
        self.device = device
        self.kv_blocks = self._allocate()

    def block_shape(self):
        return (2, self.num_blocks, self.block_size, self.num_kv_heads, self.head_size)

    def _allocate(self):
        return [torch.empty(self.block_shape(), dtype=self.dtype, device=self.device)
                for _ in range(self.start_layer, self.end_layer)]

    def copy_blocks(self, src_to_dsts):
        for cache in self.kv_blocks:
            for src, dst in src_to_dsts:
                cache[:, dst].copy_(cache[:, src])
