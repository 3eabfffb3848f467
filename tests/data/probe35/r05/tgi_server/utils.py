import torch

_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
}

_ALIASES = {"fp16": "float16", "half": "float16", "bf16": "bfloat16", "fp32": "float32", "float": "float32"}


def resolve_dtype(name: str) -> torch.dtype:
    name = _ALIASES.get(name, name)
    return _DTYPES[name]
