"""Subset of GGUF key/values we need to size the cache."""

DEFAULT_GGUF_METADATA = {
    "general.architecture": "qwen2",
    "qwen2.block_count": 28,
    "qwen2.embedding_length": 3584,
    "qwen2.attention.head_count": 28,
    "qwen2.attention.head_count_kv": 4,
    "qwen2.context_length": 32768,
}


class HParams:
    def __init__(self, meta: dict) -> None:
        arch = meta["general.architecture"]
        self.n_layer = meta[f"{arch}.block_count"]
        self.n_embd = meta[f"{arch}.embedding_length"]
        self.n_head = meta[f"{arch}.attention.head_count"]
        self.n_head_kv = meta.get(f"{arch}.attention.head_count_kv", self.n_head)
        self.n_embd_head_k = meta.get(f"{arch}.attention.key_length", self.n_embd // self.n_head)
        self.n_embd_head_v = meta.get(f"{arch}.attention.value_length", self.n_embd // self.n_head)
        self.n_ctx_train = meta[f"{arch}.context_length"]

    def n_embd_k_gqa(self) -> int:
        return self.n_embd_head_k * self.n_head_kv

    def n_embd_v_gqa(self) -> int:
        return self.n_embd_head_v * self.n_head_kv
