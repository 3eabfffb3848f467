from typing import Dict, Optional, Tuple

from lumen_deploy.pytorch.config import load_engine_config
from lumen_deploy.pytorch.engine.block_cache import DeviceBlockCache, HostBlockCache
from lumen_deploy.pytorch.engine.cache_desc import get_cache_descs


def build_cache_engines(config: Optional[Dict] = None, device: str = "cuda",
                        host_device: str = "cpu") -> Tuple[DeviceBlockCache, HostBlockCache]:
    cfg = config or load_engine_config()
    model, cache, tp = cfg["model"], cfg["cache"], cfg["dist"]["tp"]
    descs = get_cache_descs(model, cache, tp)
    gpu = DeviceBlockCache(descs, cache["num_gpu_blocks"], model["num_layers"], device)
    cpu = HostBlockCache(descs, cache["num_cpu_blocks"], model["num_layers"], host_device)
    return gpu, cpu
