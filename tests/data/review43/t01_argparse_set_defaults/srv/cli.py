import argparse

def make_parser():
    p = argparse.ArgumentParser(prog="srv")
    p.add_argument("--kv-dtype", default="bf16")
    p.add_argument("--max-tokens", type=int, default=4096)
    p.add_argument("--host-tokens", type=int, default=8192)
    return p

def parse(argv=None):
    p = make_parser()
    # this deployment is an fp8 build
    p.set_defaults(kv_dtype="fp8_e4m3")
    return p.parse_args(argv)
