"""Runtime settings: everything tunable comes from env vars set by the Ray job spec."""
import os
from types import SimpleNamespace

JAMBA_MINI = {
    "hidden_size": 4096,
    "num_hidden_layers": 16,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "attn_layer_period": 8,
    "attn_layer_offset": 4,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "torch_dtype": "bfloat16",
}


def model_config(overrides: dict = None) -> SimpleNamespace:
    cfg = dict(JAMBA_MINI)
    cfg.update(overrides or {})
    return SimpleNamespace(**cfg)


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def runtime_settings() -> SimpleNamespace:
    return SimpleNamespace(
        block_size=_env_int("HYBRID_KV_BLOCK_SIZE", 32),
        num_gpu_blocks=_env_int("HYBRID_NUM_GPU_BLOCKS", 2048),
        max_num_seqs=_env_int("HYBRID_MAX_NUM_SEQS", 64),
        host_offload_ratio=float(os.environ.get("HYBRID_HOST_OFFLOAD_RATIO", "2.0")),
        kv_dtype=os.environ.get("HYBRID_KV_DTYPE", "auto"),
        device=os.environ.get("HYBRID_DEVICE", "cuda"),
        host_device=os.environ.get("HYBRID_HOST_DEVICE", "cpu"),
    )
