from typing import Tuple

import torch

from ferry_kv import envs
from ferry_kv.disagg.paged_pool import DecodeKVPool, PrefillKVPool
from ferry_kv.disagg.transfer import TransferEngine


def bootstrap_pair(device: str = "cuda",
                   decode_device: str = "cuda") -> Tuple[PrefillKVPool, DecodeKVPool]:
    geo = envs.model_geometry()
    heads = max(1, geo["num_kv_heads"] // geo["tp_size"])
    kv_dtype = getattr(torch, envs.kv_dtype())
    scale_dtype = getattr(torch, envs.scale_dtype()) if kv_dtype.itemsize == 1 else None
    prefill = PrefillKVPool(envs.num_prefill_pages(), envs.page_size(), geo["num_layers"],
                            heads, geo["head_dim"], kv_dtype, scale_dtype, device)
    engine = TransferEngine()
    engine.register("kv_pages", prefill.kv_pages)
    # the decode side only learns the geometry through the handshake blob
    decode = DecodeKVPool.from_peer_metadata(prefill.describe(), envs.num_decode_pages(),
                                             decode_device)
    return prefill, decode
