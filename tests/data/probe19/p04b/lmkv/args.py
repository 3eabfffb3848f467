import argparse


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser("lmkv")
    p.add_argument("--num-layers", type=int, default=28)
    p.add_argument("--num-kv-heads", type=int, default=4)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--block-size", type=int, default=64)
    p.add_argument("--num-gpu-blocks", type=int, default=2000)
    p.add_argument("--num-cpu-blocks", type=int, default=500)
    p.add_argument("--quant-policy", type=int, default=8, choices=[0, 4, 8])
    p.add_argument("--model-dtype", default="float16", choices=["float16", "bfloat16"])
    return p


def default_args(argv=None) -> argparse.Namespace:
    return build_parser().parse_args(argv or [])
