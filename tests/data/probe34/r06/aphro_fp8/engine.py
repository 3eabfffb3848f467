"""Engine-side cache construction."""
from .cache_spec import CacheSpec
from .gpu_cache import Fp8PagedCache
from .offload import CpuOffloadCache


def build_caches(device="cuda", offload_device=None, spec=None, num_gpu_blocks=8192, num_cpu_blocks=2048):
    spec = spec or CacheSpec()
    if offload_device is None:
        offload_device = "meta" if str(device) == "meta" else "cpu"
    gpu = Fp8PagedCache(spec, num_gpu_blocks, device=device)
    cpu = CpuOffloadCache(spec, num_cpu_blocks, device=offload_device)
    return gpu, cpu
