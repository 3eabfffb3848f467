"""r08: build both pools on meta with the default config and compare bytes per token.

The host splits the device's fused row into `latent` and `rope`; both together mirror `kv`.
"""
from common import add_tree, per_token, verify

add_tree("r08")
from wren.config import WrenModelConfig
from wren.factory import allocate_kv_stores

store, stash = allocate_kv_stores(WrenModelConfig(device="meta", host_device="meta"))
host = per_token(stash.latent, stash.size) + per_token(stash.rope, stash.size)
measured = {"kv": (host, per_token(store.kv, store.size))}
verify("r08", store, stash, allocate_kv_stores, measured)
