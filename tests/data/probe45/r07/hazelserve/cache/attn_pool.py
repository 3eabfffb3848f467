import torch


class HybridAttnKVPool:
    """KV only for the full-attention layers of a hybrid (linear + full)
    model; linear-attention layers keep recurrent state elsewhere."""

    def __init__(self, size, head_num, head_dim, layer_ids, dtype, device):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.dtype = dtype
        self.layer_ids = list(layer_ids)
        self.layer_to_idx = {lid: i for i, lid in enumerate(self.layer_ids)}
        shape = (len(self.layer_ids), size + 1, head_num, head_dim)
        self.k_pool = torch.zeros(shape, dtype=dtype, device=device)
        self.v_pool = torch.zeros(shape, dtype=dtype, device=device)

    def get_kv_buffer(self, layer_id):
        i = self.layer_to_idx[layer_id]
        return self.k_pool[i], self.v_pool[i]

    def mirror_kwargs(self):
        return {
            "layer_ids": self.layer_ids,
            "head_num": self.head_num,
            "head_dim": self.head_dim,
            "dtype": self.dtype,
        }
