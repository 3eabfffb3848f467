import argparse

import torch

from .models.flash_causal_lm import FlashCausalLM

MODEL_CONFIG = {
    "model_type": "mistral",
    "hidden_size": 4096,
    "num_hidden_layers": 8,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
}


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser("text-generation-server")
    p.add_argument("--dtype", default="bfloat16", choices=["float16", "bfloat16"])
    p.add_argument("--kv-cache-dtype", default="fp8_e4m3fn")
    p.add_argument("--num-shard", type=int, default=2)
    p.add_argument("--max-total-tokens", type=int, default=131072)
    p.add_argument("--host-cache-ratio", type=float, default=0.5)
    p.add_argument("--device", default="cuda")
    p.add_argument("--host-device", default="cpu")
    return p


def serve(args: argparse.Namespace) -> FlashCausalLM:
    model = FlashCausalLM(MODEL_CONFIG, getattr(torch, args.dtype),
                          args.kv_cache_dtype, num_shard=args.num_shard,
                          device=args.device)
    model.warmup(args.max_total_tokens, args.host_cache_ratio,
                 host_device=args.host_device)
    return model


if __name__ == "__main__":
    serve(make_parser().parse_args())
