"""Staging area the prefill side packs KV rows into before the NIC pushes them.

One tensor [n_stage_layers, num_tokens, row] so a request's rows for every layer are
a single registered region.
"""
import torch


def _mla_row_dims(hf_config):
    """(compressed width, rope width) of one cached MLA row."""
    # V2-Lite style configs carry q_lora_rank=None
    return hf_config.q_lora_rank or hf_config.kv_lora_rank, hf_config.qk_rope_head_dim


class KVStagingArea:
    def __init__(self, num_tokens, layer_ids, row_width, dtype, device="cpu"):
        self.num_tokens = num_tokens
        self.layer_ids = list(layer_ids)
        self.row_width = row_width
        self.dtype = dtype
        self.buf = torch.empty((len(self.layer_ids), num_tokens, row_width), dtype=dtype, device=device)
        self._cursor = 0

    @classmethod
    def from_hf_config(cls, hf_config, layer_ids, num_tokens, dtype=None, device="cpu"):
        lora, rope = _mla_row_dims(hf_config)
        return cls(num_tokens, layer_ids, lora + rope, dtype or hf_config.torch_dtype, device=device)

    def pack(self, pool, token_slots):
        n = len(token_slots)
        if self._cursor + n > self.num_tokens:
            self._cursor = 0
        lo, hi = self._cursor, self._cursor + n
        for i, layer_id in enumerate(self.layer_ids):
            self.buf[i, lo:hi] = pool.get_kv_buffer(layer_id)[token_slots, 0]
        self._cursor = hi
        return lo, hi

    def unpack(self, pool, lo, hi, token_slots):
        for i, layer_id in enumerate(self.layer_ids):
            pool.get_kv_buffer(layer_id)[token_slots, 0] = self.buf[i, lo:hi]
