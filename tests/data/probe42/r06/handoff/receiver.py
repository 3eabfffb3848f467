import torch


class TransferRecvReservoir:
    """Receive area filled by the prefill instance, page by page.

    Pages are [layers, page_size, heads, dim]; whole pages arrive over the wire and
    are scattered into the DecodeKVReservoir token slots afterwards.
    """

    def __init__(self, settings):
        self.page_size = getattr(settings, "page_size", 1)
        self.num_pages = getattr(settings, "recv_pages", 128)
        self.layer_num = getattr(settings, "num_hidden_layers", 32)
        self.head_num = getattr(settings, "num_key_value_heads", 32)
        self.head_dim = getattr(settings, "head_dim", 128)
        self.dtype = getattr(settings, "kv_dtype", torch.bfloat16)
        device = getattr(settings, "recv_device", "cpu")
        page_shape = (self.layer_num, self.page_size, self.head_num, self.head_dim)
        self.k_pages = torch.stack(
            [torch.empty(page_shape, dtype=self.dtype, device=device) for _ in range(self.num_pages)]
        )
        self.v_pages = torch.stack(
            [torch.empty(page_shape, dtype=self.dtype, device=device) for _ in range(self.num_pages)]
        )

    @property
    def capacity_tokens(self):
        return self.num_pages * self.page_size

    def drain_into(self, pool, page_id, token_locs):
        for layer_id in range(self.layer_num):
            k = self.k_pages[page_id, layer_id, : len(token_locs)]
            v = self.v_pages[page_id, layer_id, : len(token_locs)]
            pool.write_tokens(layer_id, token_locs, k, v)
