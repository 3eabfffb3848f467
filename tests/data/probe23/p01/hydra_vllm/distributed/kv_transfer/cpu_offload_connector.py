# SPDX-License-Identifier: Apache-2.0
"""Offloads evicted GPU blocks into a pinned CPU block pool."""
import torch

from hydra_vllm.distributed.kv_transfer.factory import KVConnectorRole


class CPUOffloadConnector:

    def __init__(self, vllm_config, role: KVConnectorRole):
        self.role = role
        extra = vllm_config.kv_transfer_config.kv_connector_extra_config
        self.cpu_bytes_to_use = int(extra.get("cpu_bytes_to_use", 4 << 30))
        self.host_device = torch.device(extra.get("host_device", "cpu"))
        self.pin_memory = (self.host_device.type == "cpu"
                           and torch.cuda.is_available())
        self.cpu_kv_caches: dict[str, torch.Tensor] = {}
        self.num_cpu_blocks = 0

    def register_kv_caches(self, kv_caches: dict[str, torch.Tensor]):
        """Called by the worker once the GPU cache exists; the CPU pool mirrors
        the GPU page layout byte for byte so a block is one memcpy."""
        first = next(iter(kv_caches.values()))
        _, _, block_size, num_heads, head_size = first.shape
        # bytes of one block (K and V) of one layer
        page_bytes = first[:, 0].numel() * first.element_size()
        self.num_cpu_blocks = self.cpu_bytes_to_use // (page_bytes *
                                                        len(kv_caches))
        for layer_name, gpu_cache in kv_caches.items():
            buf = torch.empty(self.num_cpu_blocks * page_bytes,
                              dtype=torch.uint8,
                              device=self.host_device,
                              pin_memory=self.pin_memory)
            # keep it as raw bytes: fp8 has no CPU kernels we need here
            self.cpu_kv_caches[layer_name] = buf.view(
                2, self.num_cpu_blocks, block_size, num_heads,
                head_size * gpu_cache.element_size())

    def save_block(self, layer_name: str, gpu_block: int, cpu_block: int):
        src = self.kv_caches_view(layer_name, gpu_block)
        self.cpu_kv_caches[layer_name][:, cpu_block].copy_(src)

    def kv_caches_view(self, layer_name, gpu_block):  # pragma: no cover
        raise NotImplementedError
