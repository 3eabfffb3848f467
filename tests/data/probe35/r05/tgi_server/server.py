from tgi_server.flash_causal_lm import FlashKVCachePool
from tgi_server.speculative import DraftKVCachePool

LLAMA31_8B = {
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
}

EAGLE_HEAD = {
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 1,
}

LAUNCHER_ARGS = {
    "dtype": "bf16",
    "num_shard": 1,
    "num_blocks": 30_720,
    "speculate": 3,
}


def build_caches(device="cuda", args=LAUNCHER_ARGS):
    target = FlashKVCachePool.for_model(
        LLAMA31_8B, args["num_blocks"], args["dtype"], args["num_shard"], device)
    draft = None
    if args["speculate"]:
        draft = DraftKVCachePool.for_draft(
            target, EAGLE_HEAD, args["dtype"], args["num_shard"], device)
    return target, draft
