import torch


def resolve_dtype(name: str) -> torch.dtype:
    if name in ("bf16", "bfloat16"):
        return torch.bfloat16
    if name in ("fp16", "float16"):
        return torch.float16
    raise ValueError(f"unsupported cache dtype {name!r}")


class ProtoConfig:
    def __init__(self, n_layer=24, n_kv_head=4, d_head=128, cache_dtype="bf16",
                 index_head_dim=128, index_quant_block=128, index_keys_bf16=False):
        self.n_layer = n_layer
        self.n_kv_head = n_kv_head
        self.d_head = d_head
        self.cache_dtype = cache_dtype
        self.index_head_dim = index_head_dim
        self.index_quant_block = index_quant_block
        # debug/accuracy knob: keep indexer keys unquantized
        self.index_keys_bf16 = index_keys_bf16
