"""Mooncake distributed store client glue: config from MOONCAKE_CONFIG (JSON)
and the local staging segment put()/get() go through."""
import json
import os
from dataclasses import dataclass

import torch

from mc_serving.spec import KVSpec

DEFAULT_MOONCAKE_CONFIG = json.dumps({
    "local_hostname": "127.0.0.1",
    "metadata_server": "http://127.0.0.1:8080/metadata",
    "master_server_address": "127.0.0.1:50051",
    "protocol": "rdma",
    "device_name": "",
    "global_segment_size": 4 << 30,
    "local_buffer_size": 512 << 20,
})


@dataclass
class MooncakeStoreConfig:
    local_hostname: str
    metadata_server: str
    master_server_address: str
    protocol: str
    device_name: str
    global_segment_size: int
    local_buffer_size: int

    @classmethod
    def from_env(cls) -> "MooncakeStoreConfig":
        raw = os.environ.get("MOONCAKE_CONFIG", DEFAULT_MOONCAKE_CONFIG)
        return cls(**json.loads(raw))


class StagingSegment:
    """Token-major staging region: [slots, layers, 2, kv_heads, head_dim + 4].
    Each head row: 128 fp8 values then its fp32 scale."""

    def __init__(self, spec: KVSpec, cfg: MooncakeStoreConfig, device="cpu"):
        self.spec = spec
        self.region = torch.empty(cfg.local_buffer_size, dtype=torch.uint8,
                                  device=device)
        self.row_bytes = spec.head_dim + 4
        entry_bytes = 2 * spec.num_kv_heads * self.row_bytes
        self.num_slots = cfg.local_buffer_size // (spec.num_layers * entry_bytes)
        used = self.num_slots * spec.num_layers * entry_bytes
        self.kv_buffer = self.region[:used].view(
            self.num_slots, spec.num_layers, 2, spec.num_kv_heads, self.row_bytes)

    def put_key(self, prefix_hash: str) -> str:
        return f"{self.spec.model}/{prefix_hash}"
