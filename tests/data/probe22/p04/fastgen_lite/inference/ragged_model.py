import torch

from .config import GemmaConfig, KVCacheConfig, RaggedInferenceEngineConfig


class RaggedGemmaModel:

    def __init__(self, config: GemmaConfig, engine_config: RaggedInferenceEngineConfig):
        self._config = config
        self._engine_config = engine_config

    @property
    def num_layers(self) -> int:
        return self._config.num_hidden_layers

    @property
    def n_heads_kv(self) -> int:
        return self._config.num_key_value_heads

    @property
    def n_heads_kv_local(self) -> int:
        return max(1, self.n_heads_kv // self._engine_config.tensor_parallel)

    @property
    def head_size(self) -> int:
        # Gemma decouples head_dim from hidden_size / num_attention_heads.
        return getattr(self._config, "head_dim", None) or \
            self._config.hidden_size // self._config.num_attention_heads

    @property
    def activation_dtype(self) -> torch.dtype:
        return getattr(torch, self._config.torch_dtype)

    def kv_cache_config(self):
        return (KVCacheConfig(block_size=128,
                              cache_shape=(self.num_layers, self.n_heads_kv_local,
                                           self.head_size),
                              cache_dtype=self.activation_dtype), )
