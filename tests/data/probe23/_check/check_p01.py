import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p01")
from hydra_vllm.config import KVTransferConfig, VllmConfig
from hydra_vllm.worker.gpu_worker import init_worker

cfg = VllmConfig(device="meta", kv_transfer_config=KVTransferConfig(
    kv_connector_extra_config={"cpu_bytes_to_use": 8 << 30, "host_device": "meta"}))
w = init_worker(cfg)
r, c = w.model_runner, w.connector
bs = cfg.cache_config.block_size
layers = len(r.kv_caches)
assert layers == len(c.cpu_kv_caches) == 28
dev = _util.per_token_per_layer(list(r.kv_caches.values()), r.num_blocks * bs, layers)
host = _util.per_token_per_layer(list(c.cpu_kv_caches.values()), c.num_cpu_blocks * bs, layers)
print("gpu blocks", r.num_blocks, "cpu blocks", c.num_cpu_blocks)
_util.verify("p01", {"kv_cache": (host, dev)})
print("OK")
