def latent_row_bytes(s) -> int:
    """Bytes of one token's compressed KV row."""
    if s.kv_cache_dtype == "bf16":
        return (s.kv_lora_rank + s.qk_rope_head_dim) * 2
    nope = s.kv_lora_rank                            # fp8 latent
    scales = (s.kv_lora_rank // s.quant_tile) * 4    # one fp32 scale per tile
    rope = s.qk_rope_head_dim * 2                    # rope part stays bf16
    return nope + scales + rope


def indexer_row_bytes(s) -> int:
    """fp8 indexer key plus one fp32 scale per quant tile."""
    return s.index_head_dim + (s.index_head_dim // s.quant_tile) * 4
