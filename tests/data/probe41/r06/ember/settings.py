import torch


class KVQuantSettings:
    """Defaults live on the class; instances may override any of them."""

    num_layers = 16
    num_kv_heads = 4
    head_dim = 128
    block_tokens = 32
    num_blocks = 4096
    offload_blocks = 16384
    bits = 8
    group_size = 32
    scale_dtype = torch.float16
    device = "cuda"
    offload_device = "cpu"

    def __init__(self, **overrides):
        for name, value in overrides.items():
            if not hasattr(type(self), name):
                raise AttributeError(name)
            setattr(self, name, value)

    @property
    def qdtype(self):
        return {8: torch.int8, 4: torch.uint8}[self.bits]
