from .config import ModelArch, ServerConfig, resolve_kv_dtype
from .host_pool import HostKVMirror
from .kv_pool import DeviceKVPool


def init_kv_pools(server: ServerConfig, hf_config: dict):
    arch = ModelArch.from_hf(hf_config)
    dtype = resolve_kv_dtype(server.kv_cache_dtype, arch.torch_dtype)
    device_pool = DeviceKVPool(
        size=server.max_total_tokens,
        page_size=server.page_size,
        dtype=dtype,
        head_num=arch.kv_heads_per_rank(server.tp_size),
        head_dim=arch.head_dim,
        layer_num=arch.num_layers,
        device=server.device,
    )
    host_pool = HostKVMirror(device_pool, server.hicache_ratio, device=server.host_device)
    return device_pool, host_pool
