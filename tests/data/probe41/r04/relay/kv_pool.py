import torch


class RankKVSlab:
    """Token-indexed K/V buffers for this tensor-parallel rank."""

    def __init__(self, args):
        self.size = args.max_total_tokens
        self.head_num = args.num_key_value_heads // args.tp_size   # each rank owns a shard
        self.head_dim = args.head_dim
        self.dtype = args.torch_dtype
        self.layer_num = args.num_hidden_layers
        # slot 0 is the dummy slot written by padded tokens
        self.k_buffer = [
            torch.zeros(size=(self.size + 1, self.head_num, self.head_dim), dtype=self.dtype, device=args.device)
            for _ in range(self.layer_num)
        ]
        self.v_buffer = [
            torch.zeros(size=(self.size + 1, self.head_num, self.head_dim), dtype=self.dtype, device=args.device)
            for _ in range(self.layer_num)
        ]

    def get_kv_buffer(self, layer_id):
        return self.k_buffer[layer_id], self.v_buffer[layer_id]
