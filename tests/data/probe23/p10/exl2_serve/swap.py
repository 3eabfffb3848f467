"""Host swap space for preempted jobs. Each swap slot holds one full sequence
(max_seq_len tokens) of every layer as raw bytes, so swap-out is a plain
byte copy of cache[b] per buffer."""
import torch

GROUP = 32
FP16_BYTES = 2


class HostSwapSpace:
    def __init__(self, num_layers, num_seqs, max_seq_len, q_bytes, s_bytes, device):
        self.num_layers = num_layers
        self.num_seqs = num_seqs
        self.max_seq_len = max_seq_len
        geo = (num_layers, num_seqs, max_seq_len)
        self.key_states = torch.empty(geo + (q_bytes,), dtype=torch.uint8, device=device)
        self.value_states = torch.empty(geo + (q_bytes,), dtype=torch.uint8, device=device)
        self.key_scales = torch.empty(geo + (s_bytes,), dtype=torch.uint8, device=device)
        self.value_scales = torch.empty(geo + (s_bytes,), dtype=torch.uint8, device=device)

    @property
    def num_slots(self):
        return self.num_seqs * self.max_seq_len

    def swap_out(self, cache, batch_idx, slot):  # pragma: no cover
        for i in range(self.num_layers):
            for name in ("key_states", "value_states", "key_scales", "value_scales"):
                src = getattr(cache, name)[i][batch_idx]
                getattr(self, name)[i, slot].copy_(src.view(torch.uint8).flatten(-2))


def build_swap_for(cache, num_seqs, device="cpu") -> HostSwapSpace:
    channels = cache.num_key_value_heads * cache.head_dim
    q_bytes = channels // 2                      # int4, two per byte
    s_bytes = channels // GROUP * FP16_BYTES     # fp16 scale per group
    return HostSwapSpace(cache.num_hidden_layers, num_seqs, cache.max_seq_len,
                         q_bytes, s_bytes, device)
