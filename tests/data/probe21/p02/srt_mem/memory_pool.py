import torch


class MHATokenToKVPool:
    """Token-granular KV pool; one K and one V tensor per layer, slot 0 is padding."""

    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device, start_layer=0):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.start_layer = start_layer
        self.device = device
        self._create_buffers()

    def _create_buffers(self):
        if self.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = self.dtype
        shape = (self.size + self.page_size, self.head_num, self.head_dim)
        self.k_buffer = [torch.zeros(shape, dtype=self.store_dtype, device=self.device)
                         for _ in range(self.layer_num)]
        self.v_buffer = [torch.zeros(shape, dtype=self.store_dtype, device=self.device)
                         for _ in range(self.layer_num)]

    def get_kv_size_bytes(self):
        return sum(t.nbytes for t in self.k_buffer) + sum(t.nbytes for t in self.v_buffer)

    def get_key_buffer(self, layer_id):
        return self.k_buffer[layer_id - self.start_layer]

    def get_value_buffer(self, layer_id):
        return self.v_buffer[layer_id - self.start_layer]

    def set_kv_buffer(self, layer_id, loc, cache_k, cache_v):
        i = layer_id - self.start_layer
        self.k_buffer[i][loc] = cache_k.to(self.dtype).view(self.store_dtype)
        self.v_buffer[i][loc] = cache_v.to(self.dtype).view(self.store_dtype)
