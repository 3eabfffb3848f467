import torch

from .cache import Fp8PagedCache
from .config import HeronConfig
from .sizing import slot_bytes


class DecodeRecvBuffer:
    """Landing zone for KV pushed by prefill peers, copied into pages once complete.

    Payload is kept as raw bytes (uint8) so the transport never touches fp8 math.
    """

    def __init__(self, cfg):
        sb = slot_bytes(cfg)
        self.num_tokens = cfg.recv_tokens
        self.page_size = cfg.page_size
        pin = cfg.recv_device == "cpu" and torch.cuda.is_available()
        self.kv_data = torch.empty((cfg.num_layers, self.num_tokens, sb.data),
                                   dtype=torch.uint8, device=cfg.recv_device, pin_memory=pin)
        self.kv_scale = torch.empty((cfg.num_layers, self.num_tokens, sb.scale // 4),
                                    dtype=torch.float32, device=cfg.recv_device, pin_memory=pin)

    def commit(self, cache, layer, start, page_ids):
        n = len(page_ids) * self.page_size
        data = self.kv_data[layer, start:start + n].view(torch.float8_e4m3fn)
        scale = self.kv_scale[layer, start:start + n]
        dst_d, dst_s = cache.kv_data[layer], cache.kv_scale[layer]
        for i, p in enumerate(page_ids):
            rows = slice(i * self.page_size, (i + 1) * self.page_size)
            dst_d[p].copy_(data[rows].view(dst_d[p].transpose(0, 1).shape).transpose(0, 1))
            dst_s[p].copy_(scale[rows].view(dst_s[p].transpose(0, 1).shape).transpose(0, 1))


def make_kv_endpoints(cfg: HeronConfig = None):
    cfg = cfg or HeronConfig()
    return Fp8PagedCache(cfg), DecodeRecvBuffer(cfg)
