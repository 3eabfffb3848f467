import torch

Q_GROUP_SIZE = 32   # one fp16 scale per 32 channels


class ExLlamaV2CacheBase:
    def __init__(self, config, batch_size, max_seq_len, device):
        self.config = config
        self.batch_size = batch_size
        self.max_seq_len = max_seq_len
        self.num_hidden_layers = config.num_hidden_layers
        self.num_key_value_heads = config.num_key_value_heads
        self.head_dim = config.head_dim
        self.device = torch.device(device)
        self.current_seq_len = 0
        self.key_states: list[torch.Tensor] = []
        self.value_states: list[torch.Tensor] = []


class ExLlamaV2Cache_Q4(ExLlamaV2CacheBase):
    """4-bit cache: two nibbles per byte, fp16 scale per Q_GROUP_SIZE channels.
    Keys/values are dequantised into a shared fp16 scratch before attention."""

    def __init__(self, config, batch_size=1, max_seq_len=-1, device="cuda:0"):
        super().__init__(config, batch_size,
                         config.max_seq_len if max_seq_len == -1 else max_seq_len,
                         device)
        self.key_scales: list[torch.Tensor] = []
        self.value_scales: list[torch.Tensor] = []
        h, d = self.num_key_value_heads, self.head_dim
        shape_q = (self.batch_size, self.max_seq_len, h, d // 2)
        shape_s = (self.batch_size, self.max_seq_len, h, d // Q_GROUP_SIZE)
        for _ in range(self.num_hidden_layers):
            self.key_states.append(torch.zeros(shape_q, dtype=torch.uint8, device=self.device))
            self.value_states.append(torch.zeros(shape_q, dtype=torch.uint8, device=self.device))
            self.key_scales.append(torch.zeros(shape_s, dtype=torch.float16, device=self.device))
            self.value_scales.append(torch.zeros(shape_s, dtype=torch.float16, device=self.device))
        # dequant scratch, shared by all layers (not part of the cache contents)
        self._fp16_scratch = torch.zeros((self.batch_size, self.max_seq_len, h, d),
                                         dtype=torch.float16, device=self.device)

    @property
    def num_slots(self):
        return self.batch_size * self.max_seq_len
