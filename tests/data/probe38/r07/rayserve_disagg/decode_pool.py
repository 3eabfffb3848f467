"""Decode-side KV pool: K and V as two stacked tensors, [layer, token, head, dim]."""
import torch

from .config import EngineArgs, resolve_kv_dtype


class DecodeKVPool:
    def __init__(self, args: EngineArgs, device="cpu"):
        self.num_tokens = args.gpu_kv_tokens
        self.dtype = resolve_kv_dtype(args.kv_dtype)
        heads = args.local_kv_heads
        k_shape = [args.num_layers, self.num_tokens, heads, args.qk_head_dim]
        v_shape = [args.num_layers, self.num_tokens, heads, args.v_head_dim]
        self.k_cache = torch.empty(k_shape, dtype=self.dtype, device=device)
        self.v_cache = torch.empty(v_shape, dtype=self.dtype, device=device)

    def write_layer(self, layer: int, loc: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        self.k_cache[layer, loc] = k
        self.v_cache[layer, loc] = v

    def receive(self, buf, loc: torch.Tensor, n: int) -> None:
        for layer in range(self.k_cache.shape[0]):
            self.k_cache[layer, loc] = buf.k_bufs[layer][:n].to(self.k_cache.device)
            self.v_cache[layer, loc] = buf.v_bufs[layer][:n].to(self.v_cache.device)
