from dataclasses import dataclass

import torch


def resolve_kv_dtype(spec: str) -> torch.dtype:
    spec = spec.lower().replace("torch.", "")
    if spec in ("bf16", "bfloat16"):
        return torch.bfloat16
    if spec in ("fp16", "float16", "half"):
        return torch.float16
    if spec in ("fp8", "float8_e4m3fn"):
        return torch.float8_e4m3fn
    raise ValueError(spec)


@dataclass
class EngineArgs:
    num_layers: int = 48
    num_kv_heads: int = 16
    tensor_parallel_size: int = 4
    qk_head_dim: int = 192          # nope(128) + rope(64), MLA run un-absorbed
    v_head_dim: int = 128
    kv_dtype: str = "bf16"
    gpu_kv_tokens: int = 131072
    transfer_tokens: int = 8192
    transfer_device: str = "cpu"

    @property
    def local_kv_heads(self) -> int:
        return self.num_kv_heads // self.tensor_parallel_size


def args_from_cli(argv) -> EngineArgs:
    import argparse

    p = argparse.ArgumentParser("rayserve_disagg")
    p.add_argument("--num-layers", type=int, default=EngineArgs.num_layers)
    p.add_argument("--num-kv-heads", type=int, default=EngineArgs.num_kv_heads)
    p.add_argument("--tp", type=int, default=EngineArgs.tensor_parallel_size)
    p.add_argument("--kv-dtype", default=EngineArgs.kv_dtype)
    p.add_argument("--transfer-tokens", type=int, default=EngineArgs.transfer_tokens)
    ns = p.parse_args(argv)
    return EngineArgs(num_layers=ns.num_layers, num_kv_heads=ns.num_kv_heads,
                      tensor_parallel_size=ns.tp, kv_dtype=ns.kv_dtype,
                      transfer_tokens=ns.transfer_tokens)
