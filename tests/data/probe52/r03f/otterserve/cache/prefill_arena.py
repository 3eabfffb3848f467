"""KV arena on the prefill workers."""
import torch

from .kvformat import KVFormat


class PrefillKVArena:
    def __init__(self, layers, heads, head_dim, tokens, fmt: KVFormat, page=16, device="cuda"):
        self.fmt, self.page = fmt, page
        self.heads, self.head_dim = heads, head_dim
        self.slots = (tokens // page + 1) * page
        shape = (self.slots, heads, head_dim)
        self.k_cache = [torch.zeros(shape, dtype=fmt.storage, device=device) for _ in range(layers)]
        self.v_cache = [torch.zeros(shape, dtype=fmt.storage, device=device) for _ in range(layers)]

    @classmethod
    def from_model_config(cls, cfg, tokens, fmt, tp_size=1, page=16, device="cuda"):
        kv_heads = cfg.num_key_value_heads
        assert kv_heads % tp_size == 0 or tp_size % kv_heads == 0
        heads = max(1, kv_heads // tp_size)
        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        return cls(cfg.num_hidden_layers, heads, head_dim, tokens, fmt, page, device)

    def page_nbytes(self) -> int:
        return 2 * self.page * self.heads * self.head_dim * self.fmt.storage.itemsize
