"""Pool construction and a minimal swap-based preemption loop."""

from .arch import default_arch
from .device_pool import NASDevicePool
from .swap_pool import HostSwapPool


def create_pools(arch=None, gpu_tokens=262144, swap_tokens=524288,
                 device="cuda", host_device="cpu"):
    arch = arch or default_arch()
    gpu = NASDevicePool(arch, gpu_tokens, device=device)
    swap = HostSwapPool(arch, swap_tokens, device=host_device)
    if gpu.bytes_per_token() != swap.bytes_per_token():
        raise RuntimeError("swap space layout differs from device pool")
    return gpu, swap


class SwapScheduler:
    def __init__(self, gpu, swap):
        self.gpu = gpu
        self.swap = swap
        self.swapped = {}
        self._host_cursor = 0

    def preempt(self, req_id, dev_slots):
        n = len(dev_slots)
        host_slots = list(range(self._host_cursor, self._host_cursor + n))
        self._host_cursor += n
        self.swap.swap_out(self.gpu, dev_slots, host_slots)
        self.swapped[req_id] = host_slots

    def resume(self, req_id):
        host_slots = self.swapped.pop(req_id)
        dev_slots = self.gpu.alloc(len(host_slots))
        if dev_slots is None:
            self.swapped[req_id] = host_slots
            return None
        self.swap.swap_in(self.gpu, host_slots, dev_slots)
        return dev_slots
