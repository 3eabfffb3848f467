from .config import StreamConfig
from .rings import DEVICE_RINGS
from .sender import PrefillSendRing


def build_rings(cfg=None):
    cfg = cfg or StreamConfig()
    geometry = (cfg.page_size, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers)
    ring = DEVICE_RINGS[cfg.kv_quant](cfg.num_pages, *geometry, cfg.device)
    sender = PrefillSendRing(cfg.send_pages, *geometry, cfg.send_device,
                             quantized=cfg.kv_quant != "none")
    return ring, sender
