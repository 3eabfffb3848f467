import torch


def storage_dtype(kv_cache_dtype: str, model_dtype: str = "bfloat16") -> torch.dtype:
    if kv_cache_dtype.startswith("fp8"):
        return torch.uint8  # raw fp8 bytes, reinterpreted by the attention kernel
    if kv_cache_dtype == "auto":
        return getattr(torch, model_dtype)
    return getattr(torch, kv_cache_dtype)


class LatentCachePool:
    """Compressed-KV (latent) and decoupled-rope key rows, one pair of tensors per layer."""

    def __init__(self, hf_config: dict, runtime: dict, device="cuda"):
        self.num_layers = hf_config["num_hidden_layers"]
        self.lora_rank = hf_config["kv_lora_rank"]
        self.rope_dim = hf_config["qk_rope_head_dim"]
        self.page_size = runtime["page_size"]
        self.capacity = runtime["max_total_tokens"]
        self.store_dtype = storage_dtype(runtime["kv_cache_dtype"], hf_config["torch_dtype"])
        self.rows = self.capacity + self.page_size  # first page is the padding sink
        self.latent = [
            torch.zeros((self.rows, 1, self.lora_rank), dtype=self.store_dtype, device=device)
            for _ in range(self.num_layers)
        ]
        self.rope = [
            torch.zeros((self.rows, 1, self.rope_dim), dtype=self.store_dtype, device=device)
            for _ in range(self.num_layers)
        ]

    def set_mla_kv(self, layer: int, loc: torch.Tensor, latent: torch.Tensor, rope: torch.Tensor):
        self.latent[layer][loc] = latent.view(self.store_dtype)
        self.rope[layer][loc] = rope.view(self.store_dtype)
