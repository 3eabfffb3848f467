from wren_vllm.cache_engine import GpuBlockCache
from wren_vllm.config import ModelSpec, ParallelConfig, parse_engine_args
from wren_vllm.swap_space import CpuSwapSpace


def init_cache_engines(hf_config, argv=None, rank=0, device="cuda", swap_device="cpu"):
    args = parse_engine_args(argv)
    spec = ModelSpec.from_hf(hf_config)
    parallel = ParallelConfig(args.tensor_parallel_size, args.pipeline_parallel_size, rank)
    gpu = GpuBlockCache(spec, parallel, args, device=device)
    swap = CpuSwapSpace(spec, parallel, args, device=swap_device)
    return gpu, swap
