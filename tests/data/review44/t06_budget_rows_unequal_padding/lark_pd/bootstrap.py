from .decode import DecodePool
from .prefill import PrefillPool


def pair_prefill_decode(hf: dict, args, device: str = "cuda"):
    prefill = PrefillPool(hf, budget_bytes=int(args.gpu_kv_gib * (1 << 30)), page_size=args.page_size, device=device)
    decode = DecodePool(prefill, args.decode_tokens, device=device)
    return prefill, decode
