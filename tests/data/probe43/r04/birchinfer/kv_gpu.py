import torch

from .kv_base import AttnKVStoreBase


class HybridGpuKV(AttnKVStoreBase):
    def _attention_layers(self):
        return (i for i, kind in enumerate(self.args.layer_types) if kind == "attention")

    def _setup(self):
        self.key_store = [self._alloc(i, "k") for i in self.layer_ids]
        self.value_store = [self._alloc(i, "v") for i in self.layer_ids]

    def _alloc(self, layer_id, kind):
        a = self.args
        heads = a.num_key_value_heads // a.tp_ranks
        width = a.head_dim if kind == "k" else (a.v_head_dim or a.head_dim)
        return torch.empty_strided(
            (self.n_tokens, heads, width),
            (heads * width, width, 1),
            dtype=a.dtype,
            device=self.device,
        )
