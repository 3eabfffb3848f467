import torch

from relay.layout import _DTYPES


class DecodeRecvBuffer:
    """Blocks the decode worker exposes to NIXL READs from the prefill peer.

    Sized from the decode settings (the decode process does not load the
    prefill metadata until the first handshake)."""

    def __init__(self, s, device=None):
        m = s.model
        self.num_layers = m.num_layers
        self.num_blocks = s.decode.recv_blocks
        self.block_size = s.decode.block_size
        self.num_heads = m.num_attention_heads // s.parallel.tp
        self.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim
        self.dtype = _DTYPES[m.dtype]
        self.device = torch.device(device or s.decode.device)
        shape = (self.num_blocks, self.block_size, self.num_heads, self.head_dim)
        vshape = (self.num_blocks, self.block_size, self.num_heads, m.v_head_dim)
        self.k_cache = [torch.empty(shape, dtype=self.dtype, device=self.device)
                        for _ in range(self.num_layers)]
        self.v_cache = [torch.empty(vshape, dtype=self.dtype, device=self.device)
                        for _ in range(self.num_layers)]

    def regions(self):
        for i in range(self.num_layers):
            yield f"k{i}", self.k_cache[i]
            yield f"v{i}", self.v_cache[i]
