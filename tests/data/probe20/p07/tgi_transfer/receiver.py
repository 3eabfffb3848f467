import torch


class KVRecvBuffer:
    """Decode-side landing buffer; payloads from KVSendCache.export are copied in verbatim."""

    def __init__(self, cfg, device="cuda"):
        self.tokens = cfg.staging_tokens
        elem = 1 if cfg.kv_int8 else 2
        self.row = cfg.head_dim * elem
        self.kv_rows = [
            torch.empty((self.tokens, 2, cfg.num_kv_heads, self.row), dtype=torch.uint8, device=device)
            for _ in range(cfg.num_layers)
        ]

    def ingest(self, layer: int, slots: torch.Tensor, payload: torch.Tensor):
        self.kv_rows[layer][slots] = payload.to(self.kv_rows[layer].device)
