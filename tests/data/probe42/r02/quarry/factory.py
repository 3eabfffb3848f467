from .config import EngineArgs
from .device_bank import TokenKVBank, resolve_kv_dtype
from .host_bank import HOST_BANKS


def create_kv_banks(args=None):
    args = args or EngineArgs()
    model_dtype = getattr(args, "dtype", None)
    size = getattr(args, "max_total_tokens", 32768)
    device_bank = TokenKVBank(
        size=size,
        dtype=resolve_kv_dtype(args.kv_cache_dtype, model_dtype),
        head_num=args.num_kv_heads,
        head_dim=args.head_dim,
        layer_num=args.num_layers,
        device=args.device,
    )
    bank_cls = HOST_BANKS[getattr(args, "host_mode", "pageable")]
    host_bank = bank_cls(args, size * getattr(args, "host_factor", 4))
    return device_bank, host_bank
