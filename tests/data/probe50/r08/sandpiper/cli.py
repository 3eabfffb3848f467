import argparse
import json

GEMMA3_12B = json.dumps({
    "architectures": ["Gemma3ForCausalLM"],
    "hidden_size": 3840,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 256,
    "num_hidden_layers": 48,
    "sliding_window": 1024,
    "sliding_window_pattern": 6,
    "torch_dtype": "bfloat16",
})


def build_parser():
    p = argparse.ArgumentParser(prog="sandpiper")
    p.add_argument("--model-config", default=GEMMA3_12B, help="HF config as JSON text")
    p.add_argument("--kv-dtype", default="auto", choices=["auto", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2"])
    p.add_argument("--tp", type=int, default=1)
    p.add_argument("--max-tokens", type=int, default=262144)
    p.add_argument("--page", type=int, default=16)
    p.add_argument("--host-gib", type=float, default=48.0)
    return p


def parse(argv=None):
    ns = build_parser().parse_args(argv)
    ns.model = json.loads(ns.model_config)
    return ns
