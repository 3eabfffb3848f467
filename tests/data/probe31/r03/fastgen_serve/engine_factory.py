from types import SimpleNamespace
from typing import Optional, Tuple

import torch

from fastgen_serve.ragged.kv_cache import BlockedKVCache
from fastgen_serve.ragged.manager_configs import KVCacheConfig
from fastgen_serve.spec.draft_cache import DraftKVCache


def default_model_config() -> SimpleNamespace:
    return SimpleNamespace(
        model_type="mistral",
        num_hidden_layers=4,
        hidden_size=1024,
        num_attention_heads=16,
        num_key_value_heads=4,
        torch_dtype=torch.float16,
    )


def default_engine_config() -> SimpleNamespace:
    return SimpleNamespace(
        tensor_parallel=SimpleNamespace(tp_size=1),
        state_manager=SimpleNamespace(
            max_ragged_sequence_count=16,
            max_context=512,
            memory_config=SimpleNamespace(block_size=16, num_blocks=None),
        ),
        speculative=SimpleNamespace(num_draft_layers=1, draft_num_blocks=8),
    )


def build_engine_caches(
    model_config: Optional[SimpleNamespace] = None,
    engine_config: Optional[SimpleNamespace] = None,
    device: str = "cuda",
) -> Tuple[BlockedKVCache, DraftKVCache]:
    """Allocate the target model's blocked KV cache and the draft head cache."""
    model_config = model_config or default_model_config()
    engine_config = engine_config or default_engine_config()

    tp_size = engine_config.tensor_parallel.tp_size
    head_size = model_config.hidden_size // model_config.num_attention_heads
    n_heads_kv = max(1, model_config.num_key_value_heads // tp_size)

    mem = engine_config.state_manager.memory_config
    if mem.num_blocks is None:
        num_blocks, rem = divmod(engine_config.state_manager.max_context, mem.block_size)
        num_blocks += 1 if rem else 0
    else:
        num_blocks = mem.num_blocks

    kv_config = KVCacheConfig(
        block_size=mem.block_size,
        cache_shape=(model_config.num_hidden_layers, n_heads_kv, head_size),
        cache_dtype=model_config.torch_dtype,
        max_blocks_per_allocation_group=num_blocks,
    )
    target = BlockedKVCache([kv_config], num_blocks=num_blocks, device=device)
    draft = DraftKVCache(
        target,
        num_draft_layers=engine_config.speculative.num_draft_layers,
        num_blocks=engine_config.speculative.draft_num_blocks,
    )
    return target, draft
