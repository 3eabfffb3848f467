"""Host offload of attention KV pages. Mamba states are recomputed from the
prefix on reload, so only attention pages are mirrored."""
import torch

from .kv_spec import KVSpec


class HostKVOffloader:

    def __init__(self, spec: KVSpec, num_blocks: int, device: str = "cpu"):
        self.spec = spec
        self.num_blocks = num_blocks
        per_layer = num_blocks * spec.page_bytes
        # V pages kept in the one-byte (fp8) layout of the previous release
        per_layer_v = num_blocks * spec.block_size * spec.num_kv_heads * spec.head_dim
        pin = device == "cpu" and torch.cuda.is_available()
        # one registration-friendly flat region: [K pages of all layers | V pages ...]
        self._region = torch.empty(spec.num_attn_layers * (per_layer + per_layer_v), dtype=torch.uint8,
                                   device=device, pin_memory=pin)
        shape = (spec.num_attn_layers, num_blocks, spec.block_size, spec.num_kv_heads,
                 spec.head_dim)
        half = spec.num_attn_layers * per_layer
        self.k_cache = self._region[:half].view(spec.dtype).view(shape)
        self.v_cache = self._region[half:].view(shape)

    def offload(self, pool, src_blocks, dst_blocks):
        self.k_cache[:, dst_blocks].copy_(pool.k_cache[:, src_blocks], non_blocking=True)
        self.v_cache[:, dst_blocks].copy_(pool.v_cache[:, src_blocks], non_blocking=True)
