from dataclasses import dataclass
from typing import Tuple

import torch

from fastlane.inference.config_v2 import EngineConfigV2, KVGroupSpec


@dataclass
class PolicyModelShape:
    n_layers: int = 32
    n_heads: int = 32
    n_heads_kv: int = 8
    head_size: int = 128
    activation_dtype: torch.dtype = torch.float16
    kv_block_size: int = 64

    def layer_range(self, pp_size: int, pp_rank: int) -> Tuple[int, int]:
        per_stage = -(-self.n_layers // pp_size)
        start = pp_rank * per_stage
        return start, min(self.n_layers, start + per_stage)

    def kv_cache_config(self, engine_cfg: EngineConfigV2) -> KVGroupSpec:
        start, end = self.layer_range(engine_cfg.pipeline_parallel, engine_cfg.pipeline_rank)
        local_kv_heads = self.n_heads_kv // engine_cfg.tensor_parallel
        return KVGroupSpec(block_size=self.kv_block_size,
                           cache_shape=(end - start, local_kv_heads, self.head_size),
                           cache_dtype=self.activation_dtype)
