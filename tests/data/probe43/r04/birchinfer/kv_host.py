import torch

from .kv_base import AttnKVStoreBase


class HybridHostKV(AttnKVStoreBase):
    def _attention_layers(self):
        step = self.args.attn_every
        return range(step - 1, self.args.num_layers, step)

    def _setup(self):
        a = self.args
        self._template = torch.empty(0, dtype=a.dtype, device=self.device)
        self.keys = {i: self._alloc(i, "k") for i in self.layer_ids}
        self.values = {i: self._alloc(i, "v") for i in self.layer_ids}

    def _alloc(self, layer_id, kind):
        a = self.args
        dims = {"k": a.head_dim, "v": a.v_head_dim if a.v_head_dim is not None else a.head_dim}
        return self._template.new_empty((self.n_tokens, a.kv_heads_per_rank, dims[kind]))
