"""Prefill worker start-up."""
from .hf import DeepseekV3Config, stage_layers
from .pool import MlaKVPool
from .staging import KVStagingArea


def build_kv(hf_config=None, pp_rank=0, pp_size=2, max_total_tokens=48, staging_tokens=32,
             device="cuda", staging_device="cpu"):
    hf_config = hf_config or DeepseekV3Config()
    layer_ids = stage_layers(hf_config.num_hidden_layers, pp_rank, pp_size)
    pool = MlaKVPool(
        max_total_tokens,
        layer_ids,
        kv_lora_rank=hf_config.kv_lora_rank,
        qk_rope_head_dim=hf_config.qk_rope_head_dim,
        dtype=hf_config.torch_dtype,
        device=device,
    )
    staging = KVStagingArea.from_hf_config(hf_config, layer_ids, staging_tokens, device=staging_device)
    return pool, staging
