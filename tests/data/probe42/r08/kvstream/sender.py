import torch


class _SendRingBase:
    def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device):
        self.num_pages = num_pages
        self.page_size = page_size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device


class PrefillSendRing(_SendRingBase):
    """Page-first staging ring so one page of all layers goes out in one transfer."""

    _scale_dtype = torch.half

    def __init__(self, num_pages, page_size, head_num, head_dim, layer_num, device,
                 quantized=True):
        super().__init__(num_pages, page_size, head_num, head_dim, layer_num, device)
        self.quantized = quantized
        data_dtype = torch.uint8 if quantized else torch.bfloat16
        dshape = (num_pages, layer_num, page_size, head_num, head_dim)
        self.k_data = torch.empty(dshape, dtype=data_dtype, device=device)
        self.v_data = torch.empty(dshape, dtype=data_dtype, device=device)
        if quantized:
            sshape = (num_pages, layer_num, page_size)
            self.k_scale = torch.empty(sshape, dtype=self._scale_dtype, device=device)
            self.v_scale = torch.empty(sshape, dtype=self._scale_dtype, device=device)

    def stage(self, ring, src_page, dst_page):
        for i in range(self.layer_num):
            self.k_data[dst_page, i].copy_(ring.k_data[i][src_page].view(self.k_data.dtype))
            self.v_data[dst_page, i].copy_(ring.v_data[i][src_page].view(self.v_data.dtype))
            if self.quantized:
                self.k_scale[dst_page, i].copy_(ring.k_scale[i][src_page])
                self.v_scale[dst_page, i].copy_(ring.v_scale[i][src_page])
