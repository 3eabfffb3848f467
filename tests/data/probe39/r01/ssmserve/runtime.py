"""Wiring of the recurrent-state cache and its host stash."""

import torch

from .dims import Mamba2Dims
from .host_stash import HostStateStash
from .state_cache import RecurrentStateCache


def build_state_caches(dims=None, max_seqs=128, stash_factor=4,
                       conv_dtype=torch.bfloat16, ssm_dtype=torch.float32,
                       device="cuda", host_device="cpu"):
    """Create the GPU state cache and a host stash ``stash_factor`` times larger."""
    dims = dims or Mamba2Dims()
    cache = RecurrentStateCache(dims, max_seqs, conv_dtype=conv_dtype,
                                ssm_dtype=ssm_dtype, device=device)
    stash = HostStateStash(dims, max_seqs * stash_factor,
                           conv_dtype=conv_dtype, ssm_dtype=ssm_dtype,
                           device=host_device)
    return cache, stash


class StateScheduler:
    """Tiny preemption policy: park the youngest sequence when full."""

    def __init__(self, cache, stash):
        self.cache = cache
        self.stash = stash
        self.running = []

    def admit(self, seq_id):
        if self.cache.num_free() == 0:
            self.preempt()
        slot = self.cache.acquire(seq_id)
        self.running.append(seq_id)
        return slot

    def preempt(self):
        victim = self.running.pop()
        slot = self.cache.slot_of(victim)
        if not self.stash.park(victim, self.cache, slot):
            raise RuntimeError("host stash full; cannot preempt")
        self.cache.release(victim)
        return victim

    def resume(self, seq_id):
        slot = self.cache.acquire(seq_id)
        self.stash.unpark(seq_id, self.cache, slot)
        self.running.append(seq_id)
        return slot

    def finish(self, seq_id):
        self.running.remove(seq_id)
        self.cache.release(seq_id)
