import torch
from .cli import parse
from .pools import DeviceKV, HostKV

DTYPES = {"bf16": torch.bfloat16, "fp8_e4m3": torch.float8_e4m3fn}
HOST_WIDTH = {"bf16": 2, "fp8_e4m3": 2}   # bug: fp8 is 1 byte

def start(argv=None, device="cuda", host="cpu"):
    args = parse(argv)
    kv = args.kv_dtype or "bf16"
    gpu = DeviceKV(args.max_tokens, 4, 8, 128, DTYPES[kv], device=device)
    cpu = HostKV(args.host_tokens, 4, 8 * 128 * HOST_WIDTH[kv], device=host)
    return gpu, cpu
