import torch


class PagedKVRing:
    """bf16 paged ring: per layer [num_pages, page_size, heads, dim]."""

    def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device,
                 dtype=torch.bfloat16):
        self.num_pages = num_pages
        self.page_size = page_size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self.dtype = dtype
        shape = (num_pages, page_size, head_num, head_dim)
        self.k_data = [torch.empty(shape, dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_data = [torch.empty(shape, dtype=dtype, device=device) for _ in range(layer_num)]


class FP8PagedKVRing(PagedKVRing):
    """fp8 payload plus one fp32 dequant scale per token."""

    scale_dtype = torch.float32

    def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device):
        super().__init__(num_pages, page_size, head_num, head_dim, layer_num, device,
                         dtype=torch.float8_e4m3fn)
        sshape = (num_pages, page_size)
        self.k_scale = [torch.empty(sshape, dtype=self.scale_dtype, device=device)
                        for _ in range(layer_num)]
        self.v_scale = [torch.empty(sshape, dtype=self.scale_dtype, device=device)
                        for _ in range(layer_num)]


DEVICE_RINGS = {
    "none": PagedKVRing,
    "fp8": FP8PagedKVRing,
}
