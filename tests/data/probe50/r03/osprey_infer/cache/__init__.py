from osprey_infer.cache.registry import DEVICE_POOLS, HOST_POOLS, register_pool

__all__ = ["DEVICE_POOLS", "HOST_POOLS", "register_pool"]
