from dataclasses import dataclass, field
from typing import List


@dataclass
class HybridAttnConfig:
    """Interleaved sliding-window / full-attention model.

    Every `sliding_window_pattern`-th layer is a full-attention layer; full
    layers keep more kv heads than the sliding ones.
    """
    num_layers: int = 12
    sliding_window_pattern: int = 6
    sliding_window: int = 4096
    full_kv_heads: int = 8
    sliding_kv_heads: int = 4
    head_dim: int = 128
    kv_dtype: str = "bfloat16"
    gpu_slots: int = 20480
    host_slots: int = 81920
    device: str = "cuda"
    host_device: str = "cpu"
    layer_types: List[str] = field(default_factory=list)

    def __post_init__(self):
        if not self.layer_types:
            self.layer_types = [
                "full" if (i + 1) % self.sliding_window_pattern == 0 else "sliding"
                for i in range(self.num_layers)
            ]
        assert len(self.layer_types) == self.num_layers
