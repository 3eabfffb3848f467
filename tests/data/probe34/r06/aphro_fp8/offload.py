"""CPU offload space for preempted sequences, stored token-major per layer."""
import torch


class CpuOffloadCache:
    def __init__(self, spec, num_cpu_blocks, device="cpu"):
        self.spec = spec
        self.num_slots = num_cpu_blocks * spec.block_size
        heads, dim, layers = spec.num_kv_heads, spec.head_size, spec.num_layers
        pin = str(device) == "cpu"
        kv_dtype = spec.kind.storage_dtype(spec.model_dtype)
        self.key_cache = torch.empty((layers, self.num_slots, heads * dim), dtype=kv_dtype, device=device, pin_memory=pin)
        self.value_cache = torch.empty((layers, self.num_slots, heads * dim), dtype=kv_dtype, device=device, pin_memory=pin)
        if spec.kind.is_fp8:
            sdt = spec.kind.scale_dtype
            self.k_scale = torch.empty((layers, self.num_slots, heads), dtype=sdt, device=device, pin_memory=pin)
            self.v_scale = torch.empty((layers, self.num_slots, heads), dtype=sdt, device=device, pin_memory=pin)

    def _slots(self, blocks):
        bs = self.spec.block_size
        return (blocks[:, None] * bs + torch.arange(bs, device=blocks.device)).flatten()

    def offload(self, gpu, gpu_blocks, cpu_blocks):
        slots = self._slots(cpu_blocks)
        for i in range(self.spec.num_layers):
            k, v, ks, vs = gpu.layer(i)
            self.key_cache[i, slots] = k[gpu_blocks].flatten(0, 1).flatten(1).cpu()
            self.value_cache[i, slots] = v[gpu_blocks].flatten(0, 1).flatten(1).cpu()
            self.k_scale[i, slots] = ks[gpu_blocks].flatten(0, 1).cpu()
            self.v_scale[i, slots] = vs[gpu_blocks].flatten(0, 1).cpu()
