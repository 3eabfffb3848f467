"""Host staging for shipping prefilled KV to the decode fleet.

The prefill worker gathers the KV rows of a finished request into a pinned,
layer-major buffer that is registered once with the RDMA engine; the decode
worker receives into a buffer with the same layout.
"""

import torch


class KVSendStaging:
    def __init__(self, spec, chunk_tokens, dtype=torch.bfloat16, device="cpu"):
        self.spec = spec
        self.chunk_tokens = chunk_tokens
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.latent = torch.empty(
            (spec.num_hidden_layers, chunk_tokens, spec.kv_lora_rank),
            dtype=dtype, device=device, pin_memory=pin)
        self._filled = 0

    def reset(self):
        self._filled = 0

    def pack(self, arena, slots):
        n = len(slots)
        if self._filled + n > self.chunk_tokens:
            raise ValueError("request does not fit in one staging chunk")
        index = torch.as_tensor(slots, device=arena.kv_latent.device)
        dst = self.latent[:, self._filled: self._filled + n]
        dst.copy_(arena.kv_latent.index_select(1, index), non_blocking=True)
        self._filled += n
        return dst

    def region(self):
        """(pointer, length) tuple handed to the transfer engine."""
        return self.latent.data_ptr(), self.latent.numel() * self.latent.element_size()

    def wire_bytes(self, num_tokens):
        return num_tokens * self.latent[:, 0].numel() * self.latent.element_size()
