import torch


class HostPagedKVPool:
    """CPU block store used for swap-out; one tensor per layer."""

    def __init__(self, num_blocks, block_size, num_layers, num_kv_heads, head_dim,
                 dtype, device):
        self.num_blocks = num_blocks
        self.block_size = block_size
        torch_dtype = getattr(torch, dtype)
        block_shape = (num_blocks, block_size, num_kv_heads, head_dim)
        self.k_layers = [torch.empty(block_shape, dtype=torch_dtype, device=device)
                         for _ in range(num_layers)]
        self.v_layers = [torch.empty(block_shape, dtype=torch_dtype, device=device)
                         for _ in range(num_layers)]

    def swap_out(self, gpu_pool, mapping):
        for layer, (k, v) in enumerate(zip(self.k_layers, self.v_layers)):
            for src, dst in mapping:
                k[dst].copy_(gpu_pool.key_blocks[layer, src])
                v[dst].copy_(gpu_pool.value_blocks[layer, src])
