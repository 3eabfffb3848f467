import torch

from .configs import BlockCacheConfig, ModelShape, kv_torch_dtype


def bytes_per_token_per_layer(cache_cfg: BlockCacheConfig, model: ModelShape) -> int:
    elem = torch.finfo(kv_torch_dtype(cache_cfg.cache_dtype, model)).bits // 8
    return 2 * model.kv_heads * model.head_size * elem


class HostBlockMirror:
    """Raw byte blocks on the host, one row of bytes per token per layer."""

    def __init__(self, cache_cfg: BlockCacheConfig, model: ModelShape, device: str):
        self.cache_cfg = cache_cfg
        self.model = model
        self.row_bytes = bytes_per_token_per_layer(cache_cfg, model)
        self.blocks = torch.empty(
            (model.layers, cache_cfg.cpu_blocks, cache_cfg.block_size, self.row_bytes),
            dtype=torch.uint8,
            device=device,
        )

    @property
    def num_token_slots(self) -> int:
        return self.cache_cfg.cpu_blocks * self.cache_cfg.block_size

    def swap_out(self, gpu_cache, mapping):
        for src, dst in mapping:
            for layer in range(self.model.layers):
                raw = gpu_cache.block(layer, src).transpose(0, 1).contiguous()
                self.blocks[layer, dst] = raw.view(torch.uint8).reshape(self.cache_cfg.block_size, -1)
