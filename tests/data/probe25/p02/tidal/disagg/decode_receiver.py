from typing import List

import torch

from tidal.disagg.manifest import TransferManifest


class DecodeLatentReceiver:
    """Decode-side landing buffers that prefill pages are RDMA-written into."""

    def __init__(self, manifest: TransferManifest, num_tokens: int, device="cuda"):
        self.manifest = manifest
        self.page_size = manifest.page_size
        self.num_pages = num_tokens // manifest.page_size
        self.num_tokens = self.num_pages * self.page_size
        self.layer_num = manifest.layer_num
        dtype = getattr(torch, manifest.dtype)
        self.row_dim = manifest.latent_dim
        self.recv_buffers: List[torch.Tensor] = [
            torch.empty((self.num_pages, self.page_size, 1, self.row_dim), dtype=dtype, device=device)
            for _ in range(self.layer_num)
        ]

    def page_nbytes(self, layer_id: int) -> int:
        return self.recv_buffers[layer_id][0].nbytes
