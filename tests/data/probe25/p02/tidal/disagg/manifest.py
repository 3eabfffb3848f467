"""Layout manifest the prefill side publishes to the bootstrap server."""
from dataclasses import dataclass, asdict


@dataclass
class TransferManifest:
    layer_num: int
    page_size: int
    dtype: str
    latent_dim: int
    rope_dim: int

    def to_dict(self):
        return asdict(self)


def build_transfer_manifest(pool) -> TransferManifest:
    return TransferManifest(
        layer_num=pool.layer_num,
        page_size=pool.page_size,
        dtype=str(pool.dtype).replace("torch.", ""),
        latent_dim=pool.kv_lora_rank,
        rope_dim=pool.qk_rope_head_dim,
    )
