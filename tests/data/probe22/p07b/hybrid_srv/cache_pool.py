import torch

from .kv_spec import KVSpec


class HybridCachePool:
    """Paged KV for the attention layers + per-sequence state for the Mamba layers."""

    def __init__(self, spec: KVSpec, num_blocks: int, max_num_seqs: int, device: str):
        self.spec = spec
        self.num_blocks = num_blocks
        shape = (spec.num_attn_layers, num_blocks, spec.block_size, spec.num_kv_heads,
                 spec.head_dim)
        self.k_cache = torch.empty(shape, dtype=spec.dtype, device=device)
        self.v_cache = torch.empty(shape, dtype=spec.dtype, device=device)
        n_mamba = len(spec.mamba_layer_ids)
        self.conv_state = torch.empty((n_mamba, max_num_seqs, spec.d_inner, spec.d_conv),
                                      dtype=spec.dtype, device=device)
        self.ssm_state = torch.empty((n_mamba, max_num_seqs, spec.d_inner, spec.d_state),
                                     dtype=torch.float32, device=device)
        self.attn_slot = {layer: i for i, layer in enumerate(spec.attn_layer_ids)}

    def kv_for_layer(self, layer_id: int):
        i = self.attn_slot[layer_id]
        return self.k_cache[i], self.v_cache[i]
