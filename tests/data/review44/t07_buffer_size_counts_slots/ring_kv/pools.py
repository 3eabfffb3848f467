import torch


class RingKVPool:
    """Device KV ring: `kv_buffer_size` token slots per layer (slot 0 is the dummy slot)."""

    def __init__(self, kv_buffer_size: int, head_num: int, head_dim: int, layer_num: int,
                 dtype: torch.dtype, device: str = "cuda"):
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.k_buffer = [torch.empty((kv_buffer_size + 1, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]
        self.v_buffer = [torch.empty((kv_buffer_size + 1, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]
        self.slot_owner = torch.zeros((kv_buffer_size,), dtype=torch.int32, device=device)


class RingKVHost:
    def __init__(self, device_pool: RingKVPool, host_tokens: int, device: str = "cpu"):
        p = device_pool
        self.k_buffer = torch.empty((p.layer_num, host_tokens, p.head_num, p.head_dim), dtype=p.dtype, device=device)
        self.v_buffer = torch.empty((p.layer_num, host_tokens, p.head_num, p.head_dim), dtype=p.dtype, device=device)


def make_pools(hf: dict, args, device="cuda"):
    heads = hf["num_key_value_heads"] // args.tp_size
    dev = RingKVPool(args.kv_buffer_size, heads, hf["head_dim"], hf["num_hidden_layers"],
                     torch.bfloat16, device=device)
    host = RingKVHost(dev, args.host_tokens)
    return dev, host
