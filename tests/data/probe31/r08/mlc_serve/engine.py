from typing import Any, Dict, Optional, Tuple

from mlc_serve.chat_config import load_chat_config
from mlc_serve.disco.staging import PrefillDecodeStaging
from mlc_serve.kv_cache.paged import PagedKVCache
from mlc_serve.kv_cache.spec import KVCacheSpec


def create_kv_state(
    chat_config: Optional[Dict[str, Any]] = None,
    device: str = "cuda",
) -> Tuple[PagedKVCache, PrefillDecodeStaging]:
    """Create the shard's paged KV cache and its prefill/decode staging area."""
    spec = KVCacheSpec(chat_config or load_chat_config())
    cache = PagedKVCache(spec, device=device)
    staging = PrefillDecodeStaging(spec)
    return cache, staging
