import torch
from .cli import parse
from .pools import DeviceKV, HostKV

DTYPES = {"bf16": torch.bfloat16, "fp8_e4m3": torch.float8_e4m3fn}
HOST_WIDTH = {"bf16": 2, "fp8_e4m3": 1}

BENCH_ARGV = ["--max-tokens", "2048"]


def start(size, device="cuda", host="cpu"):
    args = parse(BENCH_ARGV)
    gpu = DeviceKV(size, 4, 8, 128, DTYPES[args.kv_dtype], device=device)
    cpu = HostKV(2 * size, 4, 8 * 128 * HOST_WIDTH[args.kv_dtype], device=host)
    return gpu, cpu
