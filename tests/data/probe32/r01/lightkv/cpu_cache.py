"""CPU offload tier mirroring the GPU memory manager slot for slot."""
import torch


class CpuKvCache:
    """Host copy of the KV buffers used when requests are paused.

    Built from the same model parameters as the GPU manager; it keeps the same
    token slot numbering so that offload/reload is a plain indexed copy.
    """

    def __init__(self, size, dtype, head_num, head_dim, layer_num, int8kv=False, device="cpu"):
        self.size = size
        self.layer_num = layer_num
        self.int8kv = int8kv
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        store_dtype = torch.int8 if int8kv else dtype
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=store_dtype, device=device, pin_memory=pin
        )
        if int8kv:
            self.scale_buffer = torch.empty(
                (layer_num, size + 1, 2 * head_num, 1), dtype=dtype, device=device, pin_memory=pin
            )
        else:
            self.scale_buffer = None

    def offload(self, mem_manager, token_indexes):
        idx = token_indexes.to(self.kv_buffer.device)
        self.kv_buffer[:, idx] = mem_manager.kv_buffer[:, token_indexes].to(self.kv_buffer.device)
        if self.scale_buffer is not None:
            self.scale_buffer[:, idx] = mem_manager.scale_buffer[:, token_indexes].to(self.scale_buffer.device)

    def reload(self, mem_manager, token_indexes):
        idx = token_indexes.to(self.kv_buffer.device)
        mem_manager.kv_buffer[:, token_indexes] = self.kv_buffer[:, idx].to(mem_manager.device, non_blocking=True)
        if self.scale_buffer is not None:
            mem_manager.scale_buffer[:, token_indexes] = self.scale_buffer[:, idx].to(
                mem_manager.device, non_blocking=True
            )
