"""MLA token pool for the layers of one pipeline stage."""
import torch


class MlaKVPool:
    def __init__(self, max_total_tokens, layer_ids, kv_lora_rank, qk_rope_head_dim, dtype,
                 device="cuda"):
        self.max_total_tokens = max_total_tokens
        self.layer_ids = list(layer_ids)
        self.start_layer = self.layer_ids[0]
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.dtype = dtype
        self.device = device
        # +1: slot 0 is reserved for padded tokens
        self.kv_buffer = [
            torch.zeros((max_total_tokens + 1, 1, kv_lora_rank + qk_rope_head_dim),
                        dtype=dtype, device=device)
            for _ in self.layer_ids
        ]

    def _local(self, layer_id):
        return layer_id - self.start_layer

    def get_kv_buffer(self, layer_id):
        return self.kv_buffer[self._local(layer_id)]

    def set_mla_kv(self, layer_id, loc, c_kv, k_rope):
        buf = self.kv_buffer[self._local(layer_id)]
        buf[loc, :, : self.kv_lora_rank] = c_kv
        buf[loc, :, self.kv_lora_rank:] = k_rope

    def contiguous_buf_infos(self):
        """(ptr, nbytes, item_bytes) per layer, registered with the transfer engine."""
        return [(b.data_ptr(), b.nbytes, b[0].nbytes) for b in self.kv_buffer]
