from types import SimpleNamespace

from tidal_rt.configs import DEEPSEEK_V32_HF_CONFIG, default_server_args, str_to_dtype
from tidal_rt.mem_cache.memory_pool import MLATokenToKVPool
from tidal_rt.mem_cache.memory_pool_host import MLATokenToKVPoolHost


class ModelRunner:
    def __init__(self, hf_config: dict = None, server_args: SimpleNamespace = None) -> None:
        self.hf_config = dict(hf_config or DEEPSEEK_V32_HF_CONFIG)
        self.server_args = server_args or default_server_args()
        self.token_to_kv_pool = None
        self.host_kv_pool = None

    @property
    def kv_cache_dtype(self):
        if self.server_args.kv_cache_dtype == "auto":
            return str_to_dtype(self.hf_config["torch_dtype"])
        return str_to_dtype(self.server_args.kv_cache_dtype)

    def init_memory_pool(self) -> None:
        args = self.server_args
        cfg = self.hf_config
        max_total = args.max_total_tokens // args.page_size * args.page_size
        self.token_to_kv_pool = MLATokenToKVPool(
            size=max_total,
            page_size=args.page_size,
            dtype=self.kv_cache_dtype,
            kv_lora_rank=cfg["kv_lora_rank"],
            qk_rope_head_dim=cfg["qk_rope_head_dim"],
            layer_num=cfg["num_hidden_layers"],
            index_head_dim=cfg["index_head_dim"],
            device=args.device,
        )
        self.host_kv_pool = MLATokenToKVPoolHost(
            self.token_to_kv_pool, args.hicache_ratio, device=args.host_device)
