import torch

from .layout import KVLayout


class HostOffloadMirror:
    def __init__(self, layout: KVLayout, host_blocks: int, device="cpu", alignment: int = 512):
        self.layout = layout
        self.host_blocks = host_blocks
        self.alignment = alignment
        k_len = self._segment(layout.qk_head_dim)
        v_len = self._segment(layout.qk_head_dim)
        k_pad = self._pad(k_len)
        layer_pitch = k_pad + self._pad(v_len)
        offsets = [(i * layer_pitch, i * layer_pitch + k_pad) for i in range(layout.num_layers)]
        self.backing = torch.empty(
            layer_pitch * layout.num_layers, dtype=torch.uint8, device=device
        )
        dims = (host_blocks, layout.kv_heads_this_rank, layout.tokens_per_block, -1)
        self.host_k = [
            self.backing[k_off:k_off + k_len].view(layout.kv_dtype).reshape(dims)
            for k_off, _ in offsets
        ]
        self.host_v = [
            self.backing[v_off:v_off + v_len].view(layout.kv_dtype).reshape(dims)
            for _, v_off in offsets
        ]

    def _segment(self, dim: int) -> int:
        lay = self.layout
        per_token = lay.kv_heads_this_rank * dim * lay.bytes_per_elem
        return self.host_blocks * lay.tokens_per_block * per_token

    def _pad(self, n: int) -> int:
        a = self.alignment
        return (n + a - 1) & ~(a - 1)
