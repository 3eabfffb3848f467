import torch

from dsmla.mla_pool import MLAPagedPool
from dsmla.model_config import MLAConfig


class HostMLAPool:
    def __init__(self, cfg: MLAConfig, device_pool: MLAPagedPool, num_host_pages: int):
        self.page_size = device_pool.page_size
        if device_pool.kv_cache_dtype == "fp8_ds_mla":
            scale_bytes = (cfg.kv_lora_rank // cfg.quant_block) * torch.float32.itemsize
            rope_bytes = cfg.qk_rope_head_dim * torch.bfloat16.itemsize
            row, dtype = cfg.kv_lora_rank + scale_bytes + rope_bytes, torch.uint8
        else:
            row, dtype = cfg.kv_lora_rank + cfg.qk_rope_head_dim, torch.bfloat16
        self.kv_pages = [torch.empty((num_host_pages, self.page_size, row), dtype=dtype, pin_memory=True)
                         for _ in range(cfg.num_hidden_layers)]
