"""r03: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r03")
from osprey.swap import create_cache_engine

arena, swap = create_cache_engine(device="meta", swap_device="meta")
assert arena.kv.untyped_storage().nbytes() == arena.storage.numel()
measured = {"storage": (per_token(swap.storage, swap.num_tokens),
                        per_token(arena.storage, arena.num_tokens))}
verify("r03", arena, swap, create_cache_engine, measured)
