import argparse
from typing import List, Optional


def _make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="text-generation-server")
    parser.add_argument("--model-id", default="meta-llama/Llama-3.2-1B-Instruct")
    parser.add_argument("--dtype", default="bfloat16", choices=["float16", "bfloat16"])
    parser.add_argument("--kv-cache-dtype", default="fp8", choices=["auto", "fp8", "fp8_e4m3"])
    parser.add_argument("--num-hidden-layers", type=int, default=4)
    parser.add_argument("--num-key-value-heads", type=int, default=8)
    parser.add_argument("--head-size", type=int, default=64)
    parser.add_argument("--world-size", type=int, default=1)
    parser.add_argument("--num-blocks", type=int, default=64)
    parser.add_argument("--block-size", type=int, default=16)
    parser.add_argument("--swap-space-mb", type=float, default=4.0)
    parser.add_argument("--pin-host-memory", action="store_true")
    return parser


def default_server_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    """Server arguments with launcher defaults applied."""
    return _make_parser().parse_args([] if argv is None else argv)
