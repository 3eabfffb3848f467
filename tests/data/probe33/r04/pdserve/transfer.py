"""Staging buffer handed to the transfer engine (Mooncake / NIXL) for RDMA writes to the decode node."""

import torch

from .config import DTYPES, layer_range

try:  # pragma: no cover - optional dependency
    from mooncake.engine import TransferEngine
except ImportError:
    class TransferEngine:
        """Stand-in that records registrations when mooncake is not installed."""

        def __init__(self):
            self.regions = []

        def register_memory(self, addr, length):
            self.regions.append((addr, length))
            return 0


def page_nbytes(cfg):
    m, c = cfg["model"], cfg["cache"]
    return c["page_size"] * 2 * m["num_key_value_heads"] * m["head_dim"] * DTYPES[c["kv_dtype"]].itemsize


def scale_page_nbytes(cfg):
    m, c = cfg["model"], cfg["cache"]
    return c["page_size"] * 2 * m["num_key_value_heads"] * DTYPES[c["scale_dtype"]].itemsize


class TransferBuffer:
    """Layer-major flat byte buffers: [layer][slot][page bytes]."""

    def __init__(self, cfg, engine=None, device="cpu"):
        self.start_layer, self.end_layer = layer_range(cfg)
        self.num_layers = self.end_layer - self.start_layer
        self.page_size = cfg["cache"]["page_size"]
        self.num_slots = cfg["transfer"]["num_pages"]
        self.page_nbytes = page_nbytes(cfg)
        self.scale_page_nbytes = scale_page_nbytes(cfg)
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.kv_data = torch.empty(self.num_layers * self.num_slots * self.page_nbytes,
                                   dtype=torch.uint8, device=device, pin_memory=pin)
        self.kv_scales = torch.empty(self.num_layers * self.num_slots * self.scale_page_nbytes,
                                     dtype=torch.uint8, device=device, pin_memory=pin)
        self.engine = engine or TransferEngine()
        for buf in (self.kv_data, self.kv_scales):
            self.engine.register_memory(buf.data_ptr(), buf.nbytes)

    def _slots(self, buf, per_page, layer_id):
        return buf.view(self.num_layers, self.num_slots, per_page)[layer_id - self.start_layer]

    def stage(self, pool, page_ids, slot_ids):
        """Gather pages of every local layer from the pool into staging slots."""
        src_idx = torch.as_tensor(page_ids, device=pool.kv_data.device)
        for layer_id in range(self.start_layer, self.end_layer):
            pages = pool.layer_view(layer_id).index_select(0, src_idx)
            scales = pool.layer_scales(layer_id).index_select(0, src_idx)
            dst = self._slots(self.kv_data, self.page_nbytes, layer_id)
            dst[slot_ids] = pages.view(torch.uint8).reshape(len(page_ids), -1).to(dst.device)
            sdst = self._slots(self.kv_scales, self.scale_page_nbytes, layer_id)
            sdst[slot_ids] = scales.view(torch.uint8).reshape(len(page_ids), -1).to(sdst.device)

    def descriptors(self, slot_id):
        """(addr, length) pairs per local layer for one slot, for the RDMA write batch."""
        base = self.kv_data.data_ptr()
        layer_stride = self.num_slots * self.page_nbytes
        return [(base + i * layer_stride + slot_id * self.page_nbytes, self.page_nbytes)
                for i in range(self.num_layers)]
