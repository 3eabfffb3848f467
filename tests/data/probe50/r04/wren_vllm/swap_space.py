import torch

from wren_vllm.utils import GiB_bytes, get_dtype_size, kv_cache_torch_dtype


class CpuSwapSpace:
    """Preempted sequences are swapped block by block into this CPU space.
    Each CPU block holds the same bytes as one GPU block of one layer."""

    def __init__(self, spec, parallel, args, device="cpu"):
        self.block_size = args.block_size
        self.dtype = kv_cache_torch_dtype(args.kv_cache_dtype, args.dtype)
        # every worker holds only its own shard of the kv heads
        self.kv_heads_per_worker = max(1, spec.num_kv_heads // parallel.world_size)
        self.head_size = spec.head_dim
        start, end = parallel.layer_slice(spec.num_layers)
        self.num_layers = end - start
        self.device = device

        block_bytes = self.get_cache_block_size()
        self.num_cpu_blocks = int(args.swap_space * GiB_bytes) // block_bytes
        pin = device == "cpu"
        self.cpu_blocks = [
            torch.empty((2, self.num_cpu_blocks, self.block_size * self.kv_heads_per_worker * self.head_size),
                        dtype=self.dtype, device=device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]

    def get_cache_block_size(self):
        per_layer = 2 * self.block_size * self.kv_heads_per_worker * self.head_size
        return per_layer * self.num_layers * get_dtype_size(self.dtype)
