"""CPU offload tier mirroring `FusedKVPool` slot for slot (pinned host RAM)."""
import torch

# Host storage dtype per --kv-cache-dtype. fp8 is parked as raw bytes because
# pinned fp8 tensors cannot be index_put on CPU.
_HOST_STORE = {
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}


class CpuOffloadTier:
    def __init__(self, device_pool, kv_cache_dtype, ratio=2.0, host_device="cpu",
                 pin_memory=False):
        self.device_pool = device_pool
        self.size = int(device_pool.size * ratio)
        self.layer_num = device_pool.layer_num
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.dtype = _HOST_STORE.get(kv_cache_dtype, torch.uint8)
        self.host_device = host_device
        self.kv_buffer = torch.empty(
            (self.layer_num, self.size, 2, self.head_num, self.head_dim),
            dtype=self.dtype, device=host_device, pin_memory=pin_memory,
        )
        self.free_slots = list(range(self.size))

    def alloc(self, need):
        if need > len(self.free_slots):
            return None
        out, self.free_slots = self.free_slots[:need], self.free_slots[need:]
        return torch.tensor(out, dtype=torch.int64)

    def free(self, indices):
        self.free_slots.extend(indices.tolist())

    def backup_from_device(self, host_indices, device_indices):
        for layer_id in range(self.layer_num):
            src = self.device_pool.kv_buffer[layer_id][device_indices]
            self.kv_buffer[layer_id, host_indices] = src.to(self.host_device)

    def load_to_device(self, host_indices, device_indices):
        for layer_id in range(self.layer_num):
            src = self.kv_buffer[layer_id, host_indices]
            self.device_pool.kv_buffer[layer_id][device_indices] = src.to(self.device_pool.device)
