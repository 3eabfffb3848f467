import torch

from dsmla.model_config import MLAConfig


class MLAPagedPool:
    def __init__(self, cfg: MLAConfig, num_pages: int, page_size: int = 64, kv_cache_dtype: str = "auto"):
        self.page_size = page_size
        self.kv_cache_dtype = kv_cache_dtype
        if kv_cache_dtype == "fp8_ds_mla":
            # fp8 latent, one fp32 scale per quant block, bf16 rope
            row = cfg.kv_lora_rank + cfg.kv_lora_rank // cfg.quant_block * 4 + cfg.qk_rope_head_dim * 2
            dtype = torch.uint8
        else:
            row = cfg.kv_lora_rank + cfg.qk_rope_head_dim
            dtype = torch.bfloat16
        self.kv_pages = [torch.zeros((num_pages, page_size, row), dtype=dtype, device="cuda")
                         for _ in range(cfg.num_hidden_layers)]
