from trtllm_py.llm_args import DataType, KvCacheConfig, Mapping, ModelConfig
from trtllm_py.pyexecutor.host_pool import SecondaryBlockPool
from trtllm_py.pyexecutor.resource_manager import KVCacheManager

_STR_TO_BINDING = {"bf16": DataType.BF16, "fp16": DataType.HALF, "fp8": DataType.FP8,
                   "float32": DataType.FLOAT}


def _kv_dtype(kv_cache_config: KvCacheConfig, model_config: ModelConfig) -> DataType:
    name = model_config.torch_dtype if kv_cache_config.dtype == "auto" else kv_cache_config.dtype
    return _STR_TO_BINDING[name]


def create_kv_cache_manager(device="cuda", model_config=None, kv_cache_config=None, mapping=None):
    model_config = model_config or ModelConfig(num_hidden_layers=32, num_attention_heads=32,
                                               num_key_value_heads=8, hidden_size=4096)
    kv_cache_config = kv_cache_config or KvCacheConfig(
        tokens_per_block=32, max_tokens=262_144, host_cache_size=48 * 1024 ** 3)
    mapping = mapping or Mapping(tp_size=2, pp_size=1)
    layer_ids = mapping.pp_layers(model_config.num_hidden_layers)
    manager = KVCacheManager(
        num_layers=len(layer_ids),
        num_kv_heads=max(1, model_config.num_key_value_heads // mapping.tp_size),
        head_dim=model_config.head_dim,
        tokens_per_block=kv_cache_config.tokens_per_block,
        max_tokens=kv_cache_config.max_tokens,
        dtype=_kv_dtype(kv_cache_config, model_config),
        layer_ids=layer_ids,
        device=device,
    )
    secondary = None
    if kv_cache_config.host_cache_size:
        secondary = SecondaryBlockPool(manager, kv_cache_config.host_cache_size,
                                       device="meta" if str(device) == "meta" else "cpu")
    return manager, secondary
