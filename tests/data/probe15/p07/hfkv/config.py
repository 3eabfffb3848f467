class ModelArgs:
    def __init__(self, hidden_size=3072, num_hidden_layers=28, num_attention_heads=16,
                 num_key_value_heads=16, head_dim=256):
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = head_dim
