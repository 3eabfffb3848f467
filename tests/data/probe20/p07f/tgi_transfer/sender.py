import torch

SCALE_BYTES = 4


def row_width(cfg) -> int:
    """Bytes of one (token, head) row."""
    if cfg.kv_int8:
        return cfg.head_dim + (SCALE_BYTES if cfg.inline_scale else 0)
    return cfg.head_dim * 2  # bf16 rows stored as raw bytes


class KVSendCache:
    """Prefill-side cache: per layer a [tokens, K|V, heads, row_bytes] byte tensor."""

    def __init__(self, cfg, device="cuda"):
        self.tokens = cfg.max_total_tokens
        self.row = row_width(cfg)
        self.kv_rows = [
            torch.zeros((self.tokens, 2, cfg.num_kv_heads, self.row), dtype=torch.uint8, device=device)
            for _ in range(cfg.num_layers)
        ]

    def export(self, layer: int, token_idx: torch.Tensor) -> torch.Tensor:
        return self.kv_rows[layer][token_idx].contiguous()
