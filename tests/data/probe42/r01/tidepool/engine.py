from .config import MirrorLayout, PoolConfig
from .device_ledger import PagedKVLedger
from .host_ledger import HostLedgerMirror


def build_ledgers(cfg=None):
    cfg = cfg or PoolConfig()
    device_pool = PagedKVLedger(
        num_pages=cfg.num_device_pages,
        page_size=cfg.page_size,
        dtype=cfg.dtype,
        head_num=cfg.num_kv_heads,
        head_dim=cfg.head_dim,
        layer_num=cfg.num_layers,
        device=cfg.device,
    )
    host_pool = HostLedgerMirror(
        device_pool,
        ratio=cfg.host_ratio,
        layout=MirrorLayout(cfg.host_layout),
        device=cfg.host_device,
        pin_memory=cfg.pin_memory,
    )
    return device_pool, host_pool
