import torch

_KV_DTYPE = {"float16": torch.float16, "bfloat16": torch.bfloat16,
             "float32": torch.float32, "fp8": torch.float8_e4m3fn}


def resolve_kv_dtype(kv_cache_dtype: str, model_dtype: str) -> torch.dtype:
    return _KV_DTYPE[model_dtype if kv_cache_dtype == "auto" else kv_cache_dtype]


class PagedKVPool:
    """Layer-major paged pool: one K and one V tensor for all layers,
    shaped [layers, blocks, block_size, kv_heads, head_dim]."""

    def __init__(self, num_layers, num_blocks, block_size, num_kv_heads, head_dim,
                 dtype, device):
        self.num_layers = num_layers
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.device = torch.device(device)
        shape = (num_layers, num_blocks, block_size, num_kv_heads, head_dim)
        self.k_cache = torch.empty(shape, dtype=dtype, device=self.device)
        self.v_cache = torch.empty(shape, dtype=dtype, device=self.device)

    @property
    def num_slots(self) -> int:
        return self.num_blocks * self.block_size

    @classmethod
    def for_draft(cls, target: "PagedKVPool", draft_spec, tp_size: int,
                  num_blocks=None) -> "PagedKVPool":
        """Draft cache shares the target's block table, so block geometry and
        dtype come from the target; the head geometry from the draft head."""
        return cls(num_layers=draft_spec.num_hidden_layers,
                   num_blocks=num_blocks or target.num_blocks,
                   block_size=target.block_size,
                   num_kv_heads=max(1, draft_spec.num_key_value_heads // tp_size),
                   head_dim=draft_spec.attn_head_dim,
                   dtype=target.dtype,
                   device=target.device)
