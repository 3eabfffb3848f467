"""Cache setup for a hybrid-window model."""
import torch

from .cpu_mirror import WindowedCpuMirror
from .gpu_kv import HybridWindowKV


def open_kv_caches(cfg, run, device="cuda", mirror_device="cpu"):
    dtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}[run.dtype]
    gpu = HybridWindowKV(cfg, run.tp_size, run.max_tokens, run.max_running, dtype, device=device)
    per_kind = {
        kind: int(gpu.capacity.get(kind, run.max_tokens) * run.mirror_ratio)
        for kind in gpu.groups
    }
    mirror = WindowedCpuMirror(cfg, run.tp_size, per_kind, dtype, device=mirror_device)
    return gpu, mirror
