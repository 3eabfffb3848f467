"""Scoped allocation with byte accounting."""
import contextlib
import logging

import torch

log = logging.getLogger(__name__)


class _Arena:
    def __init__(self, device):
        self.device = device
        self.nbytes = 0

    def take(self, shape, dtype):
        t = torch.zeros(shape, dtype=dtype, device=self.device)
        self.nbytes += t.numel() * t.element_size()
        return t


@contextlib.contextmanager
def allocation_scope(device, label):
    arena = _Arena(device)
    try:
        yield arena
    finally:
        log.info("%s: %.2f GiB on %s", label, arena.nbytes / 2**30, device)
