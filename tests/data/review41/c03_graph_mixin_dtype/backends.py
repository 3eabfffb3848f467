import torch
from graph_buffers import CudaGraphBuffersMixin


class FlashInferBackend(CudaGraphBuffersMixin):
    def __init__(self, max_bs: int, num_wrappers: int, max_context_len: int, device: str = "cuda"):
        self.max_bs = max_bs
        self.num_wrappers = num_wrappers
        self.device = device
        self.kv_indices = torch.zeros((max_bs * max_context_len,), dtype=torch.int32, device=device)
        self.init_graph_buffers()


class FlashInferMLABackend(CudaGraphBuffersMixin):
    def __init__(self, max_bs: int, num_wrappers: int, max_context_len: int, kv_lora_rank: int,
                 device: str = "cuda"):
        self.max_bs = max_bs
        self.num_wrappers = num_wrappers
        self.device = device
        self.kv_lora_rank = kv_lora_rank
        self.kv_indices = torch.zeros((max_bs * max_context_len,), dtype=torch.int64, device=device)
        self.q_indptr = torch.zeros((max_bs + 1,), dtype=torch.int32, device=device)
        self.init_graph_buffers()
