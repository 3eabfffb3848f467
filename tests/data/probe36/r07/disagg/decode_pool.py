from .block_pool import BlockPoolBase


class DecodeKVBlocks(BlockPoolBase):
    """KV blocks on the decode instance; filled by transfers from prefill."""

    def _heads_and_dim(self, cfg, deploy):
        kv_heads = max(1, cfg.num_key_value_heads // deploy.tp_size)
        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        return kv_heads, head_dim
