import torch

from aphrodite_lite.kv_transfer.lmc_metadata import (LMCacheEngineMetadata,
                                                     build_metadata)


class LMCStagingBuffer:
    """One chunk's worth of KV gathered from the paged cache before it is
    hashed and stored; retrieve() scatters it back into the GPU blocks."""

    def __init__(self, metadata: LMCacheEngineMetadata, device):
        self.metadata = metadata
        self.chunk_tokens = metadata.kv_shape[2]
        self.num_layers = metadata.kv_shape[0]
        self.kv_data = torch.empty(metadata.kv_shape, dtype=metadata.kv_dtype,
                                   device=device)
        self.kv_scales = torch.empty(metadata.scale_shape, dtype=torch.float16,
                                     device=device)


class LMCacheConnector:
    def __init__(self, cfg, cache_engine, staging_device=None):
        self.cache_engine = cache_engine
        self.metadata = build_metadata(cfg)
        self.staging = LMCStagingBuffer(self.metadata,
                                        staging_device or cfg.lmcache.local_device)

    def store(self, token_ids, slot_mapping):  # pragma: no cover
        for layer, (data, scales) in enumerate(self.cache_engine.gpu_cache):
            flat = data.flatten(1, 2)[:, slot_mapping]
            self.staging.kv_data[layer, :, : flat.shape[1]].copy_(flat)
