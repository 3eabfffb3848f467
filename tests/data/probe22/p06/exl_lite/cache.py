import torch

from .model import ExLlamaV2


class ExLlamaV2CacheBase:

    wbits: int = 16
    q_group_size: int = 32  # elements per fp16 scale in quantized caches

    def __init__(self, model: ExLlamaV2, batch_size: int, max_seq_len: int,
                 fixed_device: str = None):
        cfg = model.config
        self.model = model
        self.batch_size = batch_size
        self.max_seq_len = max_seq_len if max_seq_len != -1 else cfg.max_seq_len
        self.num_key_value_heads = cfg.num_key_value_heads
        self.head_dim = cfg.head_dim
        self.num_hidden_layers = model.num_attn_layers
        self.current_seq_len = 0
        self.device = fixed_device or model.get_cache_devices()[0]
        self.key_states = []
        self.value_states = []
        self.key_scales = []
        self.value_scales = []

    def create_state_tensors(self, dtype: torch.dtype, width: int, scale_width: int = 0):
        shape_w = (self.batch_size, self.max_seq_len, width)
        shape_s = (self.batch_size, self.max_seq_len, scale_width)
        for _ in range(self.num_hidden_layers):
            self.key_states.append(torch.empty(shape_w, dtype=dtype, device=self.device))
            self.value_states.append(torch.empty(shape_w, dtype=dtype, device=self.device))
            if scale_width:
                self.key_scales.append(torch.empty(shape_s, dtype=torch.half, device=self.device))
                self.value_scales.append(torch.empty(shape_s, dtype=torch.half, device=self.device))


class ExLlamaV2Cache(ExLlamaV2CacheBase):

    def __init__(self, model, batch_size=1, max_seq_len=-1, fixed_device=None):
        super().__init__(model, batch_size, max_seq_len, fixed_device)
        self.create_state_tensors(torch.half, self.num_key_value_heads * self.head_dim)


class ExLlamaV2Cache_Q4(ExLlamaV2CacheBase):

    wbits = 4

    def __init__(self, model, batch_size=1, max_seq_len=-1, fixed_device=None):
        super().__init__(model, batch_size, max_seq_len, fixed_device)
        numel = self.num_key_value_heads * self.head_dim
        self.create_state_tensors(torch.uint8, numel // 2, numel // self.q_group_size)


class ExLlamaV2Cache_Q8(ExLlamaV2CacheBase):

    wbits = 8

    def __init__(self, model, batch_size=1, max_seq_len=-1, fixed_device=None):
        super().__init__(model, batch_size, max_seq_len, fixed_device)
        numel = self.num_key_value_heads * self.head_dim
        self.create_state_tensors(torch.uint8, numel, numel // self.q_group_size)
