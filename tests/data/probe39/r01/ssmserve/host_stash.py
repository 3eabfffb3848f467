"""CPU-side parking area for the recurrent state of preempted sequences."""

import torch

from .dims import conv_state_shape, ssm_state_shape


def _pin_ok(device):
    return torch.device(device).type == "cpu" and torch.cuda.is_available()


class HostStateStash:
    """Pinned host copy of conv/SSM state, indexed by stash slot.

    A sequence that gets preempted has its state copied here so that its
    GPU slot can be handed to another request; on resume we copy it back.
    """

    def __init__(self, dims, capacity, conv_dtype, ssm_dtype, device="cpu"):
        self.capacity = capacity
        pin = _pin_ok(device)
        self.conv = torch.empty(
            (dims.n_layer, capacity, *conv_state_shape(dims)),
            dtype=conv_dtype, device=device, pin_memory=pin)
        self.temporal = torch.empty(
            (dims.n_layer, capacity, *ssm_state_shape(dims)),
            dtype=ssm_dtype, device=device, pin_memory=pin)
        self._free = list(range(capacity))
        self._parked = {}

    def park(self, seq_id, cache, gpu_slot):
        if not self._free:
            return False
        host_slot = self._free.pop()
        self.conv[:, host_slot].copy_(cache.conv_state[:, gpu_slot], non_blocking=True)
        self.temporal[:, host_slot].copy_(cache.ssm_state[:, gpu_slot], non_blocking=True)
        self._parked[seq_id] = host_slot
        return True

    def unpark(self, seq_id, cache, gpu_slot):
        host_slot = self._parked.pop(seq_id)
        cache.conv_state[:, gpu_slot].copy_(self.conv[:, host_slot], non_blocking=True)
        cache.ssm_state[:, gpu_slot].copy_(self.temporal[:, host_slot], non_blocking=True)
        self._free.append(host_slot)

    def is_parked(self, seq_id):
        return seq_id in self._parked

    def __len__(self):
        return len(self._parked)
