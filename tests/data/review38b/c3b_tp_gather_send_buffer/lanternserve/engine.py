from .config import ServeConfig
from .device_cache import GpuKVStore
from .host_cache import KVSendBuffer


def build_prefill_side(cfg=None, decode_tp=1):
    cfg = cfg or ServeConfig()
    gpu = GpuKVStore(cfg)
    send = KVSendBuffer(gpu, 4096, cfg.tp_size, decode_tp, device=cfg.host_device)
    return gpu, send


if __name__ == "__main__":
    c = ServeConfig(); c.device = "meta"; c.host_device = "meta"
    g, s = build_prefill_side(c)
    print("device", g.key_cache[0][0].numel() * g.key_cache[0].element_size(),
          "send", s.k_send[0, 0].numel() * s.k_send.element_size())
