import torch

# Accepted spellings of `--data_type` on the command line.
STR_TO_TORCH_DTYPE = {
    "fp16": torch.float16,
    "float16": torch.float16,
    "half": torch.float16,
    "bf16": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "fp32": torch.float32,
    "float32": torch.float32,
}


def dtype_from_str(name: str) -> torch.dtype:
    try:
        return STR_TO_TORCH_DTYPE[name.lower()]
    except KeyError as exc:
        raise ValueError(f"unsupported data_type {name!r}") from exc
