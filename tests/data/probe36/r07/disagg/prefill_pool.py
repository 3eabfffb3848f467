from .block_pool import BlockPoolBase


class PrefillStagingPool(BlockPoolBase):
    """Pinned staging blocks on the prefill instance, sent block-by-block to decode."""

    def _pin(self) -> bool:
        return self.device == "cpu"

    def _heads_and_dim(self, cfg, deploy):
        kv_heads = max(1, cfg.num_key_value_heads // deploy.tp_size)
        head_dim = cfg.hidden_size // cfg.num_attention_heads
        return kv_heads, head_dim
