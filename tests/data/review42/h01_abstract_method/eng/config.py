class ModelArch:
    """Base of the model architectures the engine serves."""

    num_hidden_layers: int
    num_key_value_heads: int

    def get_head_size(self) -> int:
        raise NotImplementedError

    def get_num_kv_heads(self, tp_size: int) -> int:
        return max(1, self.num_key_value_heads // tp_size)


class LlamaArch(ModelArch):
    def __init__(self, hidden_size: int, num_attention_heads: int, num_key_value_heads: int,
                 num_hidden_layers: int):
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_hidden_layers = num_hidden_layers

    def get_head_size(self) -> int:
        return self.hidden_size // self.num_attention_heads
