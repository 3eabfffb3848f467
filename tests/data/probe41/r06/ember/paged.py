import torch


class Int8BlockCache:
    """int8 K/V blocks with one fp16 scale per `group_size` channels."""

    def __init__(self, s):
        self.num_blocks = s.num_blocks
        self.block_tokens = s.block_tokens
        groups = s.head_dim // s.group_size
        q_shape = (s.num_layers, s.num_blocks, s.block_tokens, s.num_kv_heads, s.head_dim)
        sc_shape = q_shape[:-1] + (groups,)
        self.k_q = torch.zeros(q_shape, dtype=s.qdtype, device=s.device)
        self.v_q = torch.zeros(q_shape, dtype=s.qdtype, device=s.device)
        self.k_scale = torch.ones(sc_shape, dtype=s.scale_dtype, device=s.device)
        self.v_scale = torch.ones(sc_shape, dtype=s.scale_dtype, device=s.device)

    def block_views(self, block):
        return (self.k_q[:, block], self.v_q[:, block],
                self.k_scale[:, block], self.v_scale[:, block])
