import argparse

from build import build_disagg_pools

parser = argparse.ArgumentParser()
parser.add_argument("--role", choices=["prefill", "decode", "both"], default="both")

if __name__ == "__main__":
    args = parser.parse_args()
