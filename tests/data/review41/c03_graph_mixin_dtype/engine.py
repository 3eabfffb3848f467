from kv_cache import PagedKVCache
from host_cache import HostKVCache


def init_caches(n_layers, n_kv_heads, head_size, num_gpu_slots, num_cpu_slots, dtype):
    gpu = PagedKVCache(num_gpu_slots, n_layers, n_kv_heads, head_size, dtype)
    cpu = HostKVCache(gpu, num_cpu_slots)
    return gpu, cpu
