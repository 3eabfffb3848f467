"""Receiving side of prefill->decode KV transfer.

The decode worker never instantiates the model wrapper, so it derives the
block geometry straight from the HF config shipped with the checkpoint."""
import torch


class DecodeKVPool:

    def __init__(self, num_layers: int, num_heads: int, head_size: int,
                 block_size: int, dtype: torch.dtype, num_blocks: int,
                 device: str = "cuda"):
        self.num_layers = num_layers
        self.block_size = block_size
        self.num_blocks = num_blocks
        self.buffer = torch.empty((num_layers, num_blocks, block_size, 2, num_heads, head_size),
                                  dtype=dtype, device=device)

    @classmethod
    def from_model_config(cls, hf_config, tensor_parallel: int, block_size: int,
                          memory_bytes: int, device: str = "cuda") -> "DecodeKVPool":
        num_heads = max(1, hf_config.num_key_value_heads // tensor_parallel)
        head_size = hf_config.hidden_size // hf_config.num_attention_heads
        dtype = getattr(torch, hf_config.torch_dtype)
        elem = torch.empty((), dtype=dtype, device="meta").element_size()
        per_block = hf_config.num_hidden_layers * block_size * 2 * num_heads * head_size * elem
        return cls(hf_config.num_hidden_layers, num_heads, head_size, block_size, dtype,
                   memory_bytes // per_block, device=device)

    def receive(self, block_ids, payload: torch.Tensor):
        self.buffer[:, block_ids].copy_(payload, non_blocking=True)
