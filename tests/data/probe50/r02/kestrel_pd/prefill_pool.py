import math

import torch

from kestrel_pd.formats import ROPE_DTYPE, SCALE_DTYPE, LatentFormat


class MLAPrefillPool:
    """Paged latent cache on the prefill GPU.

    Per token and layer: the compressed kv (kv_lora_rank), one fp32 scale per
    tile when quantized, and the rotary key part (qk_rope_head_dim) in bf16.
    """

    def __init__(self, settings, device="cuda"):
        self.fmt = LatentFormat.parse(settings.latent_format)
        self.layers = settings.num_layers
        self.lora = settings.kv_lora_rank
        self.rope = settings.qk_rope_head_dim
        self.page_size = settings.page_size
        self.num_pages = math.ceil(settings.prefill_tokens / self.page_size)
        self.device = device
        slots = self.num_pages * self.page_size

        self.nope_cache = []
        self.tile_scales = []
        self.rope_cache = []
        for _ in range(self.layers):
            self.nope_cache.append(
                torch.empty((slots, self.lora), dtype=self.fmt.storage_dtype, device=device))
            if self.fmt.quantized:
                self.tile_scales.append(
                    torch.empty((slots, self.lora // self.fmt.tile), dtype=SCALE_DTYPE, device=device))
            self.rope_cache.append(torch.empty((slots, self.rope), dtype=ROPE_DTYPE, device=device))

    @property
    def slots(self):
        return self.num_pages * self.page_size

    def transfer_descriptor(self, layer):
        bufs = [self.nope_cache[layer], self.rope_cache[layer]]
        if self.tile_scales:
            bufs.insert(1, self.tile_scales[layer])
        return [(b.data_ptr(), b.shape[1] * b.element_size()) for b in bufs]
