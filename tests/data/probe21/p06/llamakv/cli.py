import argparse

from .context import LlamaKVCache
from .session import SessionSpill

PHI3_MINI = {"n_layer": 32, "n_head": 32, "n_head_kv": 32, "n_embd": 3072,
             "n_embd_head_k": 96, "n_embd_head_v": 96}


def make_parser():
    p = argparse.ArgumentParser("llama-server-lite")
    p.add_argument("--n-ctx", type=int, default=4096)
    p.add_argument("--cache-type-k", default="q8_0")
    p.add_argument("--cache-type-v", default="q4_0")
    p.add_argument("--spill-tokens", type=int, default=512)
    p.add_argument("--device", default="cuda")
    return p


def load_context(argv=None, hparams=PHI3_MINI, device=None):
    args = make_parser().parse_args(argv or [])
    device = device or args.device
    kv = LlamaKVCache(hparams, args.n_ctx, args.cache_type_k, args.cache_type_v, device=device)
    spill = SessionSpill(kv, args.spill_tokens, device="meta" if device == "meta" else "cpu")
    return kv, spill
