import torch

from .gpu import MlaKV, SparseMlaKV
from .offload import MlaOffload

GPU_CLASSES = {"mla": MlaKV, "mla_sparse": SparseMlaKV}
OFFLOAD_CLASSES = {"mla": MlaOffload, "mla_sparse": MlaOffload}


def attention_kind(model_type: str) -> str:
    return "mla_sparse" if model_type.endswith("v32") else "mla"


def build_kv(model_type="deepseek_v32", n_layers=61, n_tokens=160_000, offload_gib=32,
             device="cuda", host_device="cpu"):
    kind = attention_kind(model_type)
    gpu = GPU_CLASSES[kind](n_layers, n_tokens, device=device)
    host = OFFLOAD_CLASSES[kind](gpu, gib=offload_gib, pin=torch.cuda.is_available(), device=host_device)
    return gpu, host
