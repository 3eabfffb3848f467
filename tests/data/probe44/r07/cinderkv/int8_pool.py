import torch


class Int8KVPool:
    """int8 KV with one scale per `quant_group` contiguous elements of a head."""

    def __init__(self, knobs):
        self.tokens = knobs.gpu_tokens
        heads = knobs.kv_heads_per_rank()
        groups = knobs.head_dim // knobs.quant_group
        sdt = getattr(torch, knobs.scale_dtype)
        dev = knobs.device
        self.k_q, self.v_q, self.k_s, self.v_s = [], [], [], []
        for _ in range(knobs.num_layers):
            self.k_q.append(torch.empty((self.tokens, heads, knobs.head_dim),
                                        dtype=torch.int8, device=dev))
            self.v_q.append(torch.empty((self.tokens, heads, knobs.head_dim),
                                        dtype=torch.int8, device=dev))
            self.k_s.append(torch.full((self.tokens, heads, groups), 1.0, dtype=sdt, device=dev))
            self.v_s.append(torch.full((self.tokens, heads, groups), 1.0, dtype=sdt, device=dev))
