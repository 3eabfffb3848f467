import torch


def element_bytes(name):
    if name.startswith("fp8"):
        return 1
    elif name in ("bf16", "bfloat16", "fp16", "float16"):
        return 2
    raise ValueError(f"host mirror does not support {name}")


class HostKVMirror:
    """All layers stacked: [num_layers, tokens, row] uint8, row = K||V for one token."""

    def __init__(self, num_layers, kv_heads, head_dim, dtype_name, host_gib, page, host_device="cpu"):
        self.row = 2 * kv_heads * head_dim * element_bytes(dtype_name)
        tokens = int(host_gib * 2 ** 30) // (num_layers * self.row)
        self.tokens = tokens // page * page
        self.store = torch.zeros((num_layers, self.tokens, self.row), dtype=torch.uint8, device=host_device)
        if host_device == "cpu" and torch.cuda.is_available():
            self.store = self.store.pin_memory()

    @classmethod
    def from_device_pool(cls, pool, host_gib, host_device="cpu"):
        m = pool.spec.model
        kv_heads = max(1, m["num_key_value_heads"] // pool.spec.tp)
        head_dim = m.get("head_dim") or m["hidden_size"] // m["num_attention_heads"]
        return cls(m["num_hidden_layers"], kv_heads, head_dim, pool.spec.kv_dtype_name,
                   host_gib, pool.page, host_device=host_device)
