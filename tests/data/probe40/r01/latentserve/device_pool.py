"""GPU-resident latent cache, layer-major, one tensor for all layers."""
import torch

from .layout import LatentLayout


class LatentPagePool:
    def __init__(self, layout: LatentLayout, num_slots: int, page_size: int, device="cuda"):
        self.layout = layout
        self.page_size = page_size
        # slot 0 is the padding slot written by dummy / padded batch entries
        self.num_slots = num_slots + 1
        self.latent = torch.zeros(
            (layout.num_layers, self.num_slots, 1, layout.token_width),
            dtype=layout.dtype,
            device=device,
        )
        self.layer_views = [self.latent[i] for i in range(layout.num_layers)]

    def layer(self, layer_id: int) -> torch.Tensor:
        return self.layer_views[layer_id]

    def nope_and_rope(self, layer_id: int):
        buf = self.layer_views[layer_id]
        r = self.layout.kv_lora_rank
        return buf[..., :r], buf[..., r:]

    def write(self, layer_id: int, loc: torch.Tensor, ckv: torch.Tensor, k_pe: torch.Tensor):
        buf = self.layer_views[layer_id]
        buf[loc, :, : self.layout.kv_lora_rank] = ckv.to(buf.dtype)
        buf[loc, :, self.layout.kv_lora_rank :] = k_pe.to(buf.dtype)

    def nbytes(self) -> int:
        return self.latent.numel() * self.latent.element_size()
