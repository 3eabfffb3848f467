from typing import Optional

import torch

from tidal.disagg.decode_receiver import DecodeLatentReceiver
from tidal.disagg.manifest import build_transfer_manifest
from tidal.mem_cache.latent_pool import LatentTokenPool
from tidal.model_config import AttnArch, DeepseekArch, ServerArgs


def _kv_dtype(args: ServerArgs, arch: DeepseekArch) -> torch.dtype:
    if args.kv_cache_dtype == "auto":
        return arch.torch_dtype
    return {"fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}[args.kv_cache_dtype]


def launch_disagg_pair(arch: Optional[DeepseekArch] = None, args: Optional[ServerArgs] = None,
                       device="cuda", decode_device="cuda"):
    arch = arch or DeepseekArch()
    args = args or ServerArgs()
    assert arch.attention_arch is AttnArch.MLA
    prefill_pool = LatentTokenPool(
        size=args.max_total_tokens,
        page_size=args.page_size,
        dtype=_kv_dtype(args, arch),
        kv_lora_rank=arch.kv_lora_rank,
        qk_rope_head_dim=arch.qk_rope_head_dim,
        layer_num=arch.num_hidden_layers,
        device=device,
    )
    manifest = build_transfer_manifest(prefill_pool)
    receiver = DecodeLatentReceiver(manifest, args.decode_prealloc_tokens, device=decode_device)
    return prefill_pool, receiver
