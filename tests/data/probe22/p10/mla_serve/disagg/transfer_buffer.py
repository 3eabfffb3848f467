"""Host staging buffer registered with the Mooncake transfer engine.

Layout is layer-first so one registration covers every layer:
    kv:      [num_layers, num_tokens, bytes_per_token]
    index_k: [num_layers, num_pages, page_size * bytes_per_index_token]
"""
from typing import Callable, Dict

import torch

BUFFER_LAYOUTS: Dict[str, Callable] = {}


def register_layout(arch: str):
    def deco(fn):
        BUFFER_LAYOUTS[arch] = fn
        return fn
    return deco


@register_layout("DeepseekV32ForCausalLM")
def deepseek_v32_layout(cfg, server_args) -> Dict[str, int]:
    if server_args.kv_cache_dtype.startswith("fp8"):
        kv_bytes = cfg.kv_lora_rank + cfg.qk_rope_head_dim * 2  # fp8 nope + bf16 rope
    else:
        kv_bytes = (cfg.kv_lora_rank + cfg.qk_rope_head_dim) * 2
    index_bytes = cfg.index_head_dim + cfg.index_head_dim // 128 * 4
    return {"kv": kv_bytes, "index_k": index_bytes}


class MooncakeStagingBuffer:

    def __init__(self, layout: Dict[str, int], num_layers: int, page_size: int,
                 budget_bytes: int, device: str = "cpu"):
        self.num_layers = num_layers
        self.page_size = page_size
        per_page = num_layers * page_size * (layout["kv"] + layout["index_k"])
        self.num_pages = budget_bytes // per_page
        self.num_tokens = self.num_pages * page_size
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv = torch.empty((num_layers, self.num_tokens, layout["kv"]), dtype=torch.uint8,
                              device=device, pin_memory=pin)
        self.index_k = torch.empty((num_layers, self.num_pages, page_size * layout["index_k"]),
                                   dtype=torch.uint8, device=device, pin_memory=pin)


class TransferBufferBuilder:

    def __init__(self, model_config, server_args):
        self.model_config = model_config
        self.server_args = server_args

    def build(self) -> MooncakeStagingBuffer:
        arch = self.model_config.architectures[0]
        layout = BUFFER_LAYOUTS[arch](self.model_config, self.server_args)
        return MooncakeStagingBuffer(layout, self.model_config.num_hidden_layers,
                                     self.server_args.page_size,
                                     self.server_args.staging_buffer_mb << 20,
                                     device=self.server_args.staging_device)
