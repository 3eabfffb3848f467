from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import add_tree, per_token_layer, verify  # noqa: E402

add_tree("p01")
from kvserve import CacheConfig, build_kv_caches  # noqa: E402

cfg = CacheConfig()
gpu, host = build_kv_caches(cfg, device="meta", host_device="meta")

dev_tokens = gpu.kv.shape[2]
dev_layers = gpu.kv.shape[1]
host_tokens = host.keys[0].shape[0]
host_layers = len(host.keys)
assert dev_layers == host_layers == cfg.num_layers

verify("p01", {
    "keys (device kv[0])": (
        per_token_layer(host.keys, host_tokens, host_layers),
        per_token_layer(gpu.kv[0], dev_tokens, dev_layers),
    ),
    "values (device kv[1])": (
        per_token_layer(host.values, host_tokens, host_layers),
        per_token_layer(gpu.kv[1], dev_tokens, dev_layers),
    ),
})
