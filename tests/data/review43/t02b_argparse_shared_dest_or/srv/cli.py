import argparse

def parse(argv=None):
    p = argparse.ArgumentParser(prog="srv")
    p.add_argument("--kv-dtype", default="bf16", choices=["bf16", "fp8_e4m3"])
    p.add_argument("--fp8", dest="kv_dtype", action="store_const", const="fp8_e4m3",
                   help="shortcut for --kv-dtype fp8_e4m3")
    p.add_argument("--max-tokens", type=int, default=4096)
    p.add_argument("--host-tokens", type=int, default=8192)
    return p.parse_args(argv)
