"""Tensor-parallel helpers."""


def kv_heads_for_rank(num_key_value_heads: int, world_size: int) -> int:
    """KV heads owned by one shard; heads are replicated when there are fewer than ranks."""
    if num_key_value_heads >= world_size:
        if num_key_value_heads % world_size:
            raise ValueError("num_key_value_heads must be divisible by world_size")
        return num_key_value_heads // world_size
    if world_size % num_key_value_heads:
        raise ValueError("world_size must be a multiple of num_key_value_heads")
    return 1
