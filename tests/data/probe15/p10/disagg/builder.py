from disagg.host_pool import HostTokenKVPool
from disagg.pools import TokenKVPool


def build_kv_pools(args, dtype):
    device = TokenKVPool(args.max_total_tokens, args.num_layers, args.kv_heads, args.head_dim, dtype)
    host_capacity = int(args.host_mem_gb * (1 << 30)) // device.bytes_per_token()
    host = HostTokenKVPool(device, host_capacity)
    return device, host
