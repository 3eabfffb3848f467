from typing import Tuple

import torch


class BlockPoolBase:
    """A stack of per-stage-layer KV blocks: [layers, 2, blocks, block_size, heads, head_dim]."""

    def __init__(self, cfg, deploy, num_blocks: int, device: str):
        self.cfg = cfg
        self.block_size = deploy.block_size
        self.num_blocks = num_blocks
        self.stage_layers = self._stage_layers(cfg, deploy)
        self.num_layers = len(self.stage_layers)
        self.dtype = cfg.torch_dtype
        self.device = device
        self.kv = torch.empty(self._shape(cfg, deploy), dtype=self.dtype, device=device,
                              pin_memory=self._pin())

    def _stage_layers(self, cfg, deploy) -> range:
        from .model_config import get_pp_indices

        return range(*get_pp_indices(cfg.num_hidden_layers, deploy.pp_rank, deploy.pp_size))

    def _pin(self) -> bool:
        return False

    def _heads_and_dim(self, cfg, deploy) -> Tuple[int, int]:
        raise NotImplementedError

    def _shape(self, cfg, deploy) -> Tuple[int, ...]:
        heads, head_dim = self._heads_and_dim(cfg, deploy)
        return (self.num_layers, 2, self.num_blocks, self.block_size, heads, head_dim)

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.block_size

    def block(self, layer_id: int, block_id: int) -> torch.Tensor:
        return self.kv[layer_id - self.stage_layers.start, :, block_id]
