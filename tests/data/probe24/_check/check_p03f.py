"""p03f (the fixed form of p03, written for the auditor's tests): every buffer of the
secondary pool holds as many bytes per token per layer as the primary's, built through the
tree's own manager on the meta device."""
import os
import sys

from _util import measure

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p03f"))

from trellis_llm._torch.pyexecutor.resource_manager import KVCacheManager  # noqa: E402
from trellis_llm.llmapi import KvCacheConfig, Mapping, PretrainedConfig  # noqa: E402

cfg, kv, mapping = PretrainedConfig(), KvCacheConfig(), Mapping()
mgr = KVCacheManager.from_config(cfg, kv, mapping, device="meta", host_device="meta")
prim, sec = mgr.primary_pool, mgr.secondary_pool
assert "p03f" in sys.modules[type(prim).__module__].__file__
layers = cfg.num_hidden_layers // mapping.pp_size
tpb = kv.tokens_per_block
measured = measure(prim, kv.max_tokens // tpb * tpb, layers,
                   sec, kv.host_cache_size_tokens // tpb * tpb, layers,
                   ["kv_pool", "kv_scale_pool"])
assert measured == {"kv_pool": (512, 512), "kv_scale_pool": (16, 16)}, measured
print("OK")
