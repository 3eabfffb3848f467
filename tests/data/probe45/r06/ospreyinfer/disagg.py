from .config import MLAConfig
from .mla_cache import MLATokenCache
from .staging import TransferStagingBuffer


def prepare_transfer(hf_config, num_slots, chunk_tokens=8192, device="cuda", staging_device="cuda"):
    cfg = MLAConfig(hf_config)
    cache = MLATokenCache(cfg, num_slots, device=device)
    staging = TransferStagingBuffer(
        num_layers=cache.num_layers,
        latent_dim=cache.kv_lora_rank,
        rope_dim=cache.qk_rope_head_dim,
        chunk_tokens=chunk_tokens,
        device=staging_device,
        dtype=cache.dtype,
    )
    return cache, staging
