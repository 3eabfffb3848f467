"""The model runner builds each layer's spec, and views each layer's raw KV buffer with the
shape its attention backend gives (vllm 0.11.0)."""

from vllm.attention.backends import AttentionType
from vllm.utils import STR_DTYPE_TO_TORCH_DTYPE
from vllm.v1.kv_cache_interface import (
    AttentionSpec,
    FullAttentionSpec,
    KVCacheSpec,
    MambaSpec,
    MLAAttentionSpec,
)


def get_layers_from_vllm_config(vllm_config, layer_type):
    return vllm_config.compilation_config.static_forward_context


class GPUModelRunner:
    def __init__(self, vllm_config, device):
        self.vllm_config = vllm_config
        self.model_config = vllm_config.model_config
        self.cache_config = vllm_config.cache_config
        model_config = self.model_config
        cache_config = self.cache_config
        self.device = device
        self.dtype = self.model_config.dtype
        if cache_config.cache_dtype == "auto":
            self.kv_cache_dtype = self.dtype
        else:
            self.kv_cache_dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        self.attention_chunk_size = model_config.attention_chunk_size

    def get_kv_cache_spec(self) -> dict[str, KVCacheSpec]:
        block_size = self.vllm_config.cache_config.block_size
        use_mla = self.vllm_config.model_config.use_mla
        cache_dtype_str = self.vllm_config.cache_config.cache_dtype
        kv_cache_spec: dict[str, KVCacheSpec] = {}
        attn_layers = get_layers_from_vllm_config(self.vllm_config, object)
        for layer_name, attn_module in attn_layers.items():
            if (kv_tgt_layer := attn_module.kv_sharing_target_layer_name) is not None:
                continue
            if attn_module.attn_type == AttentionType.DECODER:
                if use_mla:
                    kv_cache_spec[layer_name] = MLAAttentionSpec(
                        block_size=block_size,
                        num_kv_heads=attn_module.num_kv_heads,
                        head_size=attn_module.head_size,
                        dtype=self.kv_cache_dtype,
                        cache_dtype_str=cache_dtype_str,
                    )
                else:
                    kv_cache_spec[layer_name] = FullAttentionSpec(
                        block_size=block_size,
                        num_kv_heads=attn_module.num_kv_heads,
                        head_size=attn_module.head_size,
                        dtype=self.kv_cache_dtype,
                    )
        mamba_layers = get_layers_from_vllm_config(self.vllm_config, object)
        for layer_name, mamba_module in mamba_layers.items():
            kv_cache_spec[layer_name] = MambaSpec(
                shapes=mamba_module.get_state_shape(),
                dtypes=mamba_module.get_state_dtype(),
                block_size=self.vllm_config.model_config.max_model_len,
                page_size_padded=self.vllm_config.cache_config.mamba_page_size_padded,
            )
        return kv_cache_spec

    def _kv_cache_spec_attn_group_iterator(self):
        return iter(self.attn_groups)

    def _reshape_kv_cache_tensors(self, kv_cache_config, kv_cache_raw_tensors):
        kv_caches = {}
        for group in self._kv_cache_spec_attn_group_iterator():
            kv_cache_spec = group.kv_cache_spec
            attn_backend = group.backend
            for layer_name in group.layer_names:
                raw_tensor = kv_cache_raw_tensors[layer_name]
                assert raw_tensor.numel() % kv_cache_spec.page_size_bytes == 0
                num_blocks = raw_tensor.numel() // kv_cache_spec.page_size_bytes
                if isinstance(kv_cache_spec, AttentionSpec):
                    # the kernels run 16-token blocks: split each block of the spec
                    kernel_size = 16
                    num_blocks = num_blocks * (kv_cache_spec.block_size // kernel_size)
                    kv_cache_shape = attn_backend.get_kv_cache_shape(
                        num_blocks,
                        kernel_size,
                        kv_cache_spec.num_kv_heads,
                        kv_cache_spec.head_size,
                        cache_dtype_str=self.cache_config.cache_dtype,
                    )
                    dtype = kv_cache_spec.dtype
                    kv_caches[layer_name] = raw_tensor.view(dtype).view(kv_cache_shape)
        return kv_caches
