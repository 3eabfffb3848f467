import torch

from lightserve.common.mem_manager import MemoryManager


class PDHostTransferBuffer:
    """Pinned staging area used to ship prefilled KV to a decode node.

    Buffers follow the rank's memory manager layout except for the token
    dimension, which is the transfer window (no scratch slot is kept).
    """

    def __init__(self, mem_manager: MemoryManager, max_transfer_tokens: int, pin_memory: bool = False):
        self.max_transfer_tokens = max_transfer_tokens
        self.pin_memory = pin_memory
        self.names = mem_manager.transfer_buffer_names()
        self.kv_buffer = self._like(mem_manager.kv_buffer)
        self.scale_buffer = None
        if "scale_buffer" in self.names:
            self.scale_buffer = self._like(mem_manager.scale_buffer)

    def _like(self, t: torch.Tensor) -> torch.Tensor:
        return torch.empty(
            (t.shape[0], self.max_transfer_tokens, *t.shape[2:]),
            dtype=t.dtype,
            device="cpu",
            pin_memory=self.pin_memory,
        )

    def stage(self, mem_manager: MemoryManager, token_indexes: torch.Tensor) -> int:
        n = token_indexes.numel()
        assert n <= self.max_transfer_tokens
        for name in self.names:
            src = getattr(mem_manager, name)
            dst = getattr(self, name)
            dst[:, :n].copy_(src[:, token_indexes.to(src.device)], non_blocking=True)
        return n

    def unstage(self, mem_manager: MemoryManager, token_indexes: torch.Tensor) -> None:
        n = token_indexes.numel()
        for name in self.names:
            dst = getattr(mem_manager, name)
            dst[:, token_indexes.to(dst.device)] = getattr(self, name)[:, :n].to(dst.device, non_blocking=True)
