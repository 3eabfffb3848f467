from .disagg.decode_pool import DecodeKVPool
from .inference.config import (GemmaConfig, MemoryConfig, RaggedInferenceEngineConfig,
                               StateManagerConfig)
from .inference.kv_cache import BlockedKVCache
from .inference.ragged_model import RaggedGemmaModel


class InferenceEngineV2:

    def __init__(self, model: RaggedGemmaModel, config: RaggedInferenceEngineConfig,
                 device: str = "cuda"):
        self._model = model
        self._config = config
        self._kv_cache = BlockedKVCache(model.kv_cache_config(),
                                        config.state_manager.memory_config, device=device)

    @property
    def kv_cache(self) -> BlockedKVCache:
        return self._kv_cache


def build_disaggregated_pair(prefill_bytes: int = 4 << 30, decode_bytes: int = 6 << 30,
                             device: str = "cuda", decode_device: str = "cuda"):
    hf_config = GemmaConfig()
    engine_config = RaggedInferenceEngineConfig(
        tensor_parallel=1,
        state_manager=StateManagerConfig(memory_config=MemoryConfig(size=prefill_bytes)))
    prefill = InferenceEngineV2(RaggedGemmaModel(hf_config, engine_config), engine_config,
                                device=device)
    block_size = prefill.kv_cache.configs[0].block_size
    decode = DecodeKVPool.from_model_config(hf_config, engine_config.tensor_parallel,
                                            block_size, decode_bytes, device=decode_device)
    return prefill, decode
