import argparse


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser("specd", description="EAGLE speculative server")
    p.add_argument("--model", default="meta-llama/Meta-Llama-3-8B-Instruct")
    p.add_argument("--draft-model", default="yuhuili/EAGLE-LLaMA3-Instruct-8B")
    p.add_argument("--num-speculative-tokens", type=int, default=5)
    p.add_argument("--tensor-parallel-size", "-tp", type=int, default=2)
    p.add_argument("--dtype", default="float16",
                   choices=["float16", "bfloat16", "float32"])
    p.add_argument("--kv-cache-dtype", default="auto",
                   choices=["auto", "fp8", "float16", "bfloat16"])
    p.add_argument("--block-size", type=int, default=32)
    p.add_argument("--num-gpu-blocks", type=int, default=8192)
    p.add_argument("--num-draft-blocks", type=int, default=None,
                   help="defaults to --num-gpu-blocks")
    p.add_argument("--device", default="cuda")
    return p


def parse_args(argv=None) -> argparse.Namespace:
    return make_parser().parse_args(argv)
