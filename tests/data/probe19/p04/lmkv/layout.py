import torch

_MODEL_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def scale_dtype(args) -> torch.dtype:
    return _MODEL_DTYPES[args.model_dtype]


def cache_dtype(args) -> torch.dtype:
    if args.quant_policy in (4, 8):
        return torch.uint8
    return _MODEL_DTYPES[args.model_dtype]


def packed_head_dim(args) -> int:
    # int4 packs two values per byte
    return args.head_dim // 2 if args.quant_policy == 4 else args.head_dim


def k_block_shape(args):
    return (args.block_size, args.num_kv_heads, packed_head_dim(args))


def scales_zeros_shape(args):
    # one (scale, zero) pair per token per head
    return (args.block_size, args.num_kv_heads, 2)
