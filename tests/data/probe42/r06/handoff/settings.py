import torch


class DisaggSettings:
    """Defaults for a decode instance; override by attribute assignment."""

    num_hidden_layers = 28
    num_key_value_heads = 8
    head_dim = 128
    kv_dtype = torch.float16
    max_total_tokens = 49152
    page_size = 32
    recv_pages = 512
    device = "cuda"
    recv_device = "cuda"
