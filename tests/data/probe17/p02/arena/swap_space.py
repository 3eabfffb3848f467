import torch

GiB = 1 << 30


class SwapSpace:
    """CPU-side swap area mirroring KVArena, sized from a byte budget."""

    def __init__(self, arena, swap_gib=4.0, pin=False, device="cpu"):
        self.n_layers = arena.n_layers
        if arena.kv_dtype == "fp8":
            self.dtype = torch.uint8  # raw fp8 bytes
        else:
            self.dtype = torch.bfloat16
        elem = torch.tensor([], dtype=self.dtype).element_size()
        per_token = 2 * arena.n_layers * arena.kv_heads * arena.head_dim * elem
        self.slots = max(1, int(swap_gib * GiB) // per_token)
        self.kv_data = torch.empty(
            (2, arena.n_layers, self.slots, arena.kv_heads, arena.head_dim),
            dtype=self.dtype,
            device=device,
            pin_memory=pin,
        )

    def swap_out(self, arena, src, dst):
        self.kv_data[:, :, dst] = arena.kv_data[:, :, src].view(self.dtype).cpu()
