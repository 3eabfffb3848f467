import torch


def _row_bytes(knobs):
    """Bytes per token per layer for (quantized values, scales)."""
    heads = knobs.num_kv_heads // knobs.tp
    values = heads * knobs.head_dim                      # int8 -> 1 byte each
    scale_bits = torch.finfo(getattr(torch, knobs.scale_dtype)).bits
    scales = heads * (knobs.head_dim // knobs.quant_group) * scale_bits // 8
    return values, scales


class PinnedKVStage:
    """Host staging area; everything kept as raw bytes, reinterpreted on upload."""

    def __init__(self, knobs):
        self.tokens = knobs.host_tokens
        vb, sb = _row_bytes(knobs)
        L, dev = knobs.num_layers, knobs.host_device
        self.kq_bytes = torch.empty((L, self.tokens, vb), dtype=torch.uint8, device=dev)
        self.vq_bytes = torch.empty_like(self.kq_bytes)
        self.ks_bytes = torch.empty((L, self.tokens, sb), dtype=torch.uint8, device=dev)
        self.vs_bytes = torch.empty_like(self.ks_bytes)

    def upload(self, pool, layer, src, dst):
        pool.k_q[layer][dst] = self.kq_bytes[layer, src].view(torch.int8).view_as(pool.k_q[layer][dst])
        pool.v_q[layer][dst] = self.vq_bytes[layer, src].view(torch.int8).view_as(pool.v_q[layer][dst])
        pool.k_s[layer][dst] = self.ks_bytes[layer, src].view(pool.k_s[layer].dtype).view_as(pool.k_s[layer][dst])
        pool.v_s[layer][dst] = self.vs_bytes[layer, src].view(pool.v_s[layer].dtype).view_as(pool.v_s[layer][dst])
