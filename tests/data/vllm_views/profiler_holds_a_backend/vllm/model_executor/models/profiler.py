"""A profiling helper: which backend to time when none is given."""
from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend


class AttentionProfiler:
    def __init__(self, backend=FlashAttentionBackend):
        self.backend = backend
