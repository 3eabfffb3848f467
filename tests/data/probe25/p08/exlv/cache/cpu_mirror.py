import torch

from exlv.cache.device_cache import QuantContextCache


class CpuSessionMirror:
    """CPU copy of a cache's quantised state, used to park a session between requests."""

    def __init__(self, cache: QuantContextCache, max_seq_len: int = 4096, device="cpu"):
        v = cache.variant
        d = cache.dims
        self.batch_size = cache.batch_size
        self.max_seq_len = max_seq_len
        self.num_layers = cache.num_layers
        pin = str(device) == "cpu" and torch.cuda.is_available()
        args = (self.batch_size, max_seq_len, d.num_key_value_heads, d.head_dim)
        shape, dtype = v.state_shape(*args)
        self.k = [torch.empty(shape, dtype=dtype, device=device, pin_memory=pin)
                  for _ in range(self.num_layers)]
        self.v = [torch.empty(shape, dtype=dtype, device=device, pin_memory=pin)
                  for _ in range(self.num_layers)]
        self.k_sc, self.v_sc = [], []
        if v.quantized:
            sshape, sdtype = v.scale_shape(*args)
            self.k_sc = [torch.empty(sshape, dtype=sdtype, device=device, pin_memory=pin)
                         for _ in range(self.num_layers)]
            self.v_sc = [torch.empty(sshape, dtype=sdtype, device=device, pin_memory=pin)
                         for _ in range(self.num_layers)]
