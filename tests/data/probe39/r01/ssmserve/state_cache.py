"""GPU-resident recurrent state for all running sequences."""

import torch
from torch import nn

from .dims import conv_state_shape, ssm_state_shape


class RecurrentStateCache(nn.Module):
    """Holds conv and SSM state for up to ``max_seqs`` concurrent sequences.

    The tensors are module buffers so that ``.to()`` / CUDA-graph capture
    see them like any other model state; they are not part of the
    checkpoint, hence ``persistent=False``.
    """

    def __init__(self, dims, max_seqs, conv_dtype=torch.bfloat16,
                 ssm_dtype=torch.float32, device="cuda"):
        super().__init__()
        self.dims = dims
        self.max_seqs = max_seqs
        self.register_buffer(
            "conv_state",
            torch.zeros((dims.n_layer, max_seqs) + conv_state_shape(dims),
                        dtype=conv_dtype, device=device),
            persistent=False,
        )
        self.register_buffer(
            "ssm_state",
            torch.zeros((dims.n_layer, max_seqs) + ssm_state_shape(dims),
                        dtype=ssm_dtype, device=device),
            persistent=False,
        )
        self._free = list(range(max_seqs - 1, -1, -1))
        self._owner = {}

    # -- slot bookkeeping -------------------------------------------------
    def acquire(self, seq_id):
        if not self._free:
            raise RuntimeError("recurrent state cache exhausted")
        slot = self._free.pop()
        self._owner[seq_id] = slot
        self.reset(slot)
        return slot

    def release(self, seq_id):
        slot = self._owner.pop(seq_id)
        self._free.append(slot)
        return slot

    def slot_of(self, seq_id):
        return self._owner[seq_id]

    def num_free(self):
        return len(self._free)

    # -- state access -----------------------------------------------------
    def reset(self, slot):
        self.conv_state[:, slot].zero_()
        self.ssm_state[:, slot].zero_()

    def layer(self, idx):
        return self.conv_state[idx], self.ssm_state[idx]

    def gather(self, slots):
        index = torch.as_tensor(slots, device=self.conv_state.device)
        return (self.conv_state.index_select(1, index),
                self.ssm_state.index_select(1, index))

    def scatter(self, slots, conv, ssm):
        index = torch.as_tensor(slots, device=self.conv_state.device)
        self.conv_state.index_copy_(1, index, conv)
        self.ssm_state.index_copy_(1, index, ssm)

    def state_bytes(self):
        return sum(b.numel() * b.element_size() for b in self.buffers())
