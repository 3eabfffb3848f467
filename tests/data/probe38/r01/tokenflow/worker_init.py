"""Start-up wiring for a model worker's KV memory."""
from dataclasses import dataclass

from .common.dtypes import STR_TO_TORCH_DTYPE
from .common.mem_manager import DeviceTokenKVStore
from .common.cpu_mirror import CpuKVMirror


@dataclass
class WorkerKVConfig:
    layer_num: int = 32
    kv_head_num: int = 8
    head_dim: int = 128
    data_type: str = "float16"
    tp_world_size: int = 2
    max_total_token_num: int = 16384
    host_ratio: float = 2.0


def kv_heads_per_rank(cfg: WorkerKVConfig) -> int:
    # replicate KV heads when tp > kv heads
    return max(1, cfg.kv_head_num // cfg.tp_world_size)


def build_kv_memory(cfg: WorkerKVConfig = None, device="cpu", host_device="cpu"):
    cfg = cfg or WorkerKVConfig()
    device_store = DeviceTokenKVStore(
        slots=cfg.max_total_token_num,
        kv_dtype=STR_TO_TORCH_DTYPE[cfg.data_type],
        kv_heads=kv_heads_per_rank(cfg),
        head_size=cfg.head_dim,
        n_layers=cfg.layer_num,
        device=device,
    )
    mirror = CpuKVMirror(device_store, cfg, device=host_device)
    return device_store, mirror
