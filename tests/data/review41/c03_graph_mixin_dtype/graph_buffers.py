import torch


class CudaGraphBuffersMixin:
    """Static buffers the CUDA-graph runner replays into, one set per wrapper."""

    def _alloc_metadata(self, shape, dtype=torch.int32):
        return torch.zeros(shape, dtype=dtype, device=self.device)

    def init_graph_buffers(self):
        self.kv_indptr = []
        self.kv_last_page_len = []
        for _ in range(self.num_wrappers):
            self.kv_indptr.append(self._alloc_metadata((self.max_bs + 1,)))
            self.kv_last_page_len.append(self._alloc_metadata((self.max_bs,)))
