import torch

from .params import KvCacheParams


class PrimaryBlockPool:
    """[layers, 2 (K/V), blocks, tokens_per_block, heads * head_size] on GPU."""

    def __init__(self, params: KvCacheParams, max_blocks: int, device="cuda"):
        self.params = params
        self.max_blocks = max_blocks
        self.local_layers = {lid: i for i, lid in enumerate(params.layer_ids)}
        self.kv_pool = torch.zeros(
            len(params.layer_ids), 2, max_blocks, params.tokens_per_block,
            params.num_kv_heads * params.size_per_head,
            dtype=params.dtype, device=device,
        )

    def layer_view(self, layer_id):
        return self.kv_pool[self.local_layers[layer_id]]


class SecondaryBlockPool:
    """Host offload pool; block layout identical to the primary pool."""

    def __init__(self, primary: PrimaryBlockPool, max_blocks: int):
        p = primary.params
        n_layers, kv, _, tpb, width = primary.kv_pool.shape
        self.max_blocks = max_blocks
        self.kv_pool = torch.empty(
            n_layers, kv, max_blocks, tpb, width,
            dtype=primary.kv_pool.dtype, device="cpu",
        )
        self.params = p

    def offload(self, primary: PrimaryBlockPool, src_block: int, dst_block: int):
        self.kv_pool[:, :, dst_block].copy_(primary.kv_pool[:, :, src_block])
