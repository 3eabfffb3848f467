import abc
from dataclasses import dataclass

import torch


@dataclass
class DepotConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    max_tokens: int = 65536
    swap_space_tokens: int = 262144
    device: str = "cuda"
    swap_device: str = "cpu"
    pin_memory: bool = True


# int8 payload plus one fp32 scale per (token, kv head)
DATA_DTYPE = torch.uint8
SCALE_DTYPE = torch.float32


class QuantKVDepotBase(abc.ABC):
    def __init__(self, size, head_num, head_dim, layer_num, device):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self._create_buffers()

    @abc.abstractmethod
    def _create_buffers(self):
        raise NotImplementedError

    def token_bytes(self):
        data = self.head_num * self.head_dim * torch.empty(0, dtype=DATA_DTYPE).element_size()
        scale = self.head_num * torch.empty(0, dtype=SCALE_DTYPE).element_size()
        return 2 * self.layer_num * (data + scale)
