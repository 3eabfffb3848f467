import torch


class PrefillSendBuffer:
    """Host staging area: finished prefill KV is gathered here and posted to the decode peer."""

    def __init__(self, args):
        self.capacity = args.staging_tokens
        self.layer_num = args.num_hidden_layers
        heads = args.num_key_value_heads
        dtype = args.torch_dtype
        pin = args.staging_device == "cpu" and torch.cuda.is_available()
        shape = (self.capacity, heads, args.head_dim)
        self.k_buffer = [torch.empty(shape, dtype=dtype, device=args.staging_device, pin_memory=pin)
                         for _ in range(self.layer_num)]
        self.v_buffer = [torch.empty(shape, dtype=dtype, device=args.staging_device, pin_memory=pin)
                         for _ in range(self.layer_num)]

    def stage(self, slab, token_idx):
        n = token_idx.numel()
        for layer in range(self.layer_num):
            k, v = slab.get_kv_buffer(layer)
            self.k_buffer[layer][:n].copy_(k[token_idx], non_blocking=True)
            self.v_buffer[layer][:n].copy_(v[token_idx], non_blocking=True)
        return n

    def descriptors(self, n):
        """(address, length) pairs handed to the transfer engine."""
        out = []
        for buf in self.k_buffer + self.v_buffer:
            row = buf[0].numel() * buf.element_size()
            out.append((buf.data_ptr(), n * row))
        return out
