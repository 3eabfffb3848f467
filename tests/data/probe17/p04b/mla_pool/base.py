import torch


class RowStore:
    """Token-major store; subclasses say how wide one token row is."""

    elem_dtype = torch.bfloat16

    def __init__(self, n_layers, capacity, device="cuda", pin=False):
        self.n_layers = n_layers
        self.capacity = capacity
        self.device = device
        self.pin = pin
        self._alloc()

    @property
    def row_width(self):
        raise NotImplementedError

    def _alloc(self):
        kw = dict(dtype=self.elem_dtype, device=self.device)
        if self.pin:
            kw["pin_memory"] = True
        self.rows = [torch.empty((self.capacity, self.row_width), **kw) for _ in range(self.n_layers)]
