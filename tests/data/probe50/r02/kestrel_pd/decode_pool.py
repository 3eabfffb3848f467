import torch

from kestrel_pd.formats import SCALE_DTYPE, LatentFormat


def segment_layout(fmt, kv_lora_rank, rope_dim):
    """(name, elements per token, dtype) for each receive segment."""
    segs = [("nope", kv_lora_rank, fmt.storage_dtype)]
    if fmt.quantized:
        segs.append(("scales", kv_lora_rank // fmt.tile, SCALE_DTYPE))
    segs.append(("rope", rope_dim, fmt.storage_dtype))
    return segs


class MLADecodeRecvPool:
    """Receive side of the P/D transfer.  Token slots are assigned by the
    decode scheduler, so the pool is flat (no pages)."""

    def __init__(self, settings, device="cuda"):
        self.fmt = LatentFormat.parse(settings.latent_format)
        self.layers = settings.num_layers
        self.size = settings.decode_tokens
        self.device = device
        self.layout = segment_layout(self.fmt, settings.kv_lora_rank, settings.qk_rope_head_dim)
        self.segments = {
            name: [torch.empty((self.size, n), dtype=dt, device=device) for _ in range(self.layers)]
            for name, n, dt in self.layout
        }

    def row_bytes(self):
        return {name: bufs[0].shape[1] * bufs[0].element_size()
                for name, bufs in self.segments.items()}

    @property
    def nope(self):
        return self.segments["nope"]

    @property
    def scales(self):
        return self.segments.get("scales", [])

    @property
    def rope(self):
        return self.segments["rope"]
