"""Host copy of the int4 store as array-of-structs byte rows."""
import torch


class Int4HostRows:
    ORDER = ("key_codes", "key_scales", "value_codes", "value_scales")

    def __init__(self, geom: dict, num_tokens: int, page_size: int = 16, device="cpu"):
        self.page_size = page_size
        self.num_slots = num_tokens // page_size * page_size
        code_b = geom["codes"].numel()
        scale_b = geom["scales"].numel() * geom["scale_dtype"].itemsize
        self.widths = [code_b, scale_b, code_b, scale_b]
        self.rows = torch.empty((geom["layers"], self.num_slots, sum(self.widths)),
                                dtype=torch.uint8, device=device)
        parts = torch.split(self.rows, self.widths, dim=-1)
        self.key_codes, self.key_scales, self.value_codes, self.value_scales = parts

    def token_row(self, layer: int, slot: int) -> torch.Tensor:
        return self.rows[layer, slot]

    def page_span(self, page: int) -> slice:
        lo = page * self.page_size
        return slice(lo, lo + self.page_size)

    def store_page(self, store, page: int, dst_page: int):
        src, dst = store.page_span(page), self.page_span(dst_page)
        for name in self.ORDER:
            device_field = getattr(store, name)[:, src]
            host_field = getattr(self, name)[:, dst]
            host_field.copy_(device_field.reshape(host_field.shape[:2] + (-1,)).view(torch.uint8))

    def nbytes(self) -> int:
        return self.rows.numel() * self.rows.element_size()
