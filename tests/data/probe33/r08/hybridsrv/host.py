"""Host pools; the policy decides whether sliding-window pages are kept or recomputed."""

import torch


class FullOnlyHostPool:
    """Keeps full-attention pages only; sliding-window KV is recomputed on reload."""

    def __init__(self, device_pool, ratio=2.0, device="cpu"):
        cfg = device_pool.cfg
        self.page_size = cfg.page_size
        self.full_pages = int(device_pool.full_num_pages * ratio)
        self.num_full_layers = len(cfg.full_layer_ids)
        width = 2 * cfg.full_kv_heads * cfg.full_head_dim
        self.pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.full_kv = torch.empty((self.num_full_layers, self.full_pages, self.page_size, width),
                                   dtype=cfg.torch_dtype, device=device, pin_memory=self.pin)

    def save_full(self, device_pool, layer_idx, dev_pages, host_pages):
        src = device_pool.full_kv[layer_idx][dev_pages]          # (n, 2, ps, h, d)
        src = src.permute(0, 2, 1, 3, 4).reshape(len(dev_pages), self.page_size, -1)
        self.full_kv[layer_idx, host_pages] = src.to(self.full_kv.device)


class HybridHostPool(FullOnlyHostPool):
    """Also mirrors the sliding-window arena so preempted requests resume without recompute."""

    def __init__(self, device_pool, ratio=2.0, device="cpu"):
        super().__init__(device_pool, ratio, device)
        cfg = device_pool.cfg
        self.swa_pages = int(device_pool.swa_num_pages * ratio)
        self.num_swa_layers = len(cfg.swa_layer_ids)
        width = 2 * cfg.swa_kv_heads * cfg.swa_head_dim
        self.swa_kv = torch.empty((self.num_swa_layers, self.swa_pages, self.page_size, width),
                                  dtype=cfg.torch_dtype, device=device, pin_memory=self.pin)

    def save_swa(self, device_pool, layer_idx, dev_pages, host_pages):
        src = device_pool.swa_kv[layer_idx][dev_pages]
        src = src.permute(0, 2, 1, 3, 4).reshape(len(dev_pages), self.page_size, -1)
        self.swa_kv[layer_idx, host_pages] = src.to(self.swa_kv.device)


HOST_POOLS = {"full_only": FullOnlyHostPool, "hybrid": HybridHostPool}


def make_host_pool(device_pool, policy="hybrid", ratio=2.0, device="cpu"):
    return HOST_POOLS[policy](device_pool, ratio=ratio, device=device)
