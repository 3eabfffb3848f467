import torch

from lightllm_fork.common.basemodel_utils import get_dtype, get_head_dim


class CpuKvCacheOffload:
    """Page-granular CPU tier that radix-cache evictions are spilled into."""

    def __init__(self, network_config: dict, world_size: int, data_type: str,
                 cpu_cache_gb: float, token_page_size: int = 64, device="cpu"):
        self.layer_num = network_config["num_hidden_layers"]
        self.head_num = max(1, network_config.get(
            "num_kv_heads", network_config["num_attention_heads"]) // world_size)
        self.head_dim = get_head_dim(network_config)
        self.dtype = get_dtype(data_type)
        self.token_page_size = token_page_size
        self.device = device
        page_bytes = (self.layer_num * token_page_size * 2 * self.head_num * self.head_dim
                      * torch._utils._element_size(self.dtype))
        self.page_num = int(cpu_cache_gb * 1024 ** 3) // page_bytes
        self.cpu_kv_cache_tensor = self._alloc()

    def _alloc(self):
        shape = (self.page_num, self.layer_num, self.token_page_size, 2 * self.head_num, self.head_dim)
        pin = str(self.device) == "cpu" and torch.cuda.is_available()
        return torch.empty(shape, dtype=self.dtype, device=self.device, pin_memory=pin)

    @property
    def num_tokens(self) -> int:
        return self.page_num * self.token_page_size

    def offload_page(self, page_idx, mem_manager, token_indexes):
        src = mem_manager.kv_buffer[:, token_indexes].transpose(0, 1)
        self.cpu_kv_cache_tensor[page_idx, :, : src.shape[0]].copy_(src.transpose(0, 1), non_blocking=True)
