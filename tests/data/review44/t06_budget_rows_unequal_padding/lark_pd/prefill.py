import torch


class PrefillPool:
    def __init__(self, hf: dict, budget_bytes: int, page_size: int = 64, device: str = "cuda"):
        self.num_layers = hf["num_hidden_layers"]
        self.head_num = hf["num_key_value_heads"]
        self.head_dim = hf["head_dim"]
        self.page_size = page_size
        self.device = device
        self.num_tokens = budget_bytes // self._row_bytes()
        self.k_cache = [torch.zeros((self.num_tokens + page_size, self.head_num, self.head_dim),
                                    dtype=torch.uint8, device=device) for _ in range(self.num_layers)]
        self.v_cache = [torch.zeros((self.num_tokens + page_size, self.head_num, self.head_dim),
                                    dtype=torch.uint8, device=device) for _ in range(self.num_layers)]
        self.k_scale = [torch.zeros((self.num_tokens, self.head_num), dtype=torch.float32,
                                    device=device) for _ in range(self.num_layers)]

    def _row_bytes(self) -> int:
        return (2 * self.head_num * self.head_dim + 4 * self.head_num) * self.num_layers
