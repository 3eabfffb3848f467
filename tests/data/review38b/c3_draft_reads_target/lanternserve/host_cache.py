import torch


class EagleDraftKV:
    """KV cache of the one-layer EAGLE draft head run beside the target model: it uses the
    target store's slot indices and dtype, but the draft head's own KV head count and head
    size."""

    def __init__(self, gpu_store, draft_heads, draft_head_dim):
        ref = gpu_store.key_cache[0]
        self.num_slots = gpu_store.num_slots
        self.device = ref.device
        layers = 1  # the draft head is one decoder layer
        shape = (layers, self.num_slots, draft_heads, draft_head_dim)
        self.draft_k = torch.empty(shape, dtype=ref.dtype, device=self.device)
        self.draft_v = torch.empty(shape, dtype=ref.dtype, device=self.device)
