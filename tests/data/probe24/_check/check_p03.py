from _util import measure, use_tree, verify

info = use_tree("p03")

from trellis_llm._torch.pyexecutor.resource_manager import KVCacheManager  # noqa: E402
from trellis_llm.llmapi import KvCacheConfig, Mapping, PretrainedConfig  # noqa: E402

cfg, kv, mapping = PretrainedConfig(), KvCacheConfig(), Mapping()
mgr = KVCacheManager.from_config(cfg, kv, mapping, device="meta", host_device="meta")
prim, sec = mgr.primary_pool, mgr.secondary_pool
layers = cfg.num_hidden_layers // mapping.pp_size
tpb = kv.tokens_per_block
measured = measure(prim, kv.max_tokens // tpb * tpb, layers,
                   sec, kv.host_cache_size_tokens // tpb * tpb, layers,
                   ["kv_pool", "kv_scale_pool"])
verify("p03", info, measured, prim, sec)
