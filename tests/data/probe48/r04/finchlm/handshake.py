"""Bootstrap of a prefill/decode pair: the decode side never sees the model config."""
from __future__ import annotations

import json
from typing import Any

from .decode_pool import DecodeRecvPool
from .prefill_pool import PrefillInt4Pool


def negotiate_pools(model_cfg: dict[str, Any], args: Any, device: str = "cuda",
                    decode_device: str = "cuda"):
    """Build the prefill pool, ship its layout as JSON, build the decode pool from it."""
    kv_heads = model_cfg["num_key_value_heads"]
    head_dim = model_cfg.get("head_dim") or model_cfg["hidden_size"] // model_cfg["num_attention_heads"]
    prefill = PrefillInt4Pool(
        num_tokens=args.prefill_tokens,
        page_size=args.page_size,
        n_layers=model_cfg["num_hidden_layers"],
        kv_heads=max(1, kv_heads // args.tp_size),
        head_dim=head_dim,
        group_size=args.kv_group_size,
        device=device,
    )
    wire = json.dumps(prefill.describe())
    decode = DecodeRecvPool.from_layout(json.loads(wire), num_tokens=args.decode_tokens,
                                        device=decode_device)
    return prefill, decode
