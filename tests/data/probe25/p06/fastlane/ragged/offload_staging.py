import torch

from fastlane.inference.config_v2 import EngineConfigV2
from fastlane.inference.model_impl import PolicyModelShape


class StagingKVBuffer:
    """Pinned bounce buffer that blocks pass through on their way to/from host offload."""

    def __init__(self, model: PolicyModelShape, engine_cfg: EngineConfigV2, device="cpu"):
        start, end = model.layer_range(engine_cfg.pipeline_parallel, engine_cfg.pipeline_rank)
        self.num_layers = end - start
        self.num_blocks = engine_cfg.state_manager.offload_staging_blocks
        self.block_size = model.kv_block_size
        heads = model.n_heads // engine_cfg.tensor_parallel
        pin = str(device) == "cpu" and torch.cuda.is_available()
        self.bounce = torch.empty(
            (self.num_blocks, self.num_layers, self.block_size, 2, heads, model.head_size),
            dtype=model.activation_dtype, device=device, pin_memory=pin)
