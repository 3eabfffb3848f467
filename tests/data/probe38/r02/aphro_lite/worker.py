"""Worker start-up: profile memory, then build the GPU cache and swap space."""
from .config import EngineConfig
from .cache_engine import GPUBlockCache
from .swap_space import CPUSwapSpace


def init_cache_engine(engine_config: EngineConfig = None, device="cuda", swap_device="cpu"):
    engine_config = engine_config or EngineConfig()
    mc = engine_config.model_config
    cc = engine_config.cache_config
    pc = engine_config.parallel_config

    gpu_cache = GPUBlockCache(mc, cc, pc, device=device)
    swap = CPUSwapSpace(
        mc, pc,
        swap_space_bytes=cc.swap_space_bytes,
        block_size=cc.block_size,
        device=swap_device,
    )
    return gpu_cache, swap
