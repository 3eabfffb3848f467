"""The V2 runner's view (vllm 0.14 v1/worker/gpu/attn_utils.py, cut down)."""
from vllm.v1.kv_cache_interface import AttentionSpec


def _reshape_kv_cache(kv_cache_config, kv_cache_raw_tensors, attn_backends):
    kv_caches = {}
    for kv_cache_group_spec in kv_cache_config.kv_cache_groups:
        kv_cache_spec = kv_cache_group_spec.kv_cache_spec
        assert isinstance(kv_cache_spec, AttentionSpec)
        for layer_name in kv_cache_group_spec.layer_names:
            raw_tensor = kv_cache_raw_tensors[layer_name]
            num_blocks, rest = divmod(raw_tensor.numel(), kv_cache_spec.page_size_bytes)
            attn_backend = attn_backends[layer_name]
            kv_cache_shape = attn_backend.get_kv_cache_shape(
                num_blocks,
                kv_cache_spec.block_size,
                kv_cache_spec.num_kv_heads,
                kv_cache_spec.head_size,
            )
            kv_caches[layer_name] = raw_tensor.view(kv_cache_spec.dtype).view(kv_cache_shape)
    return kv_caches
