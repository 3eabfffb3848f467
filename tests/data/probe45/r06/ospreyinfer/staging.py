import torch


class TransferStagingBuffer:
    """Contiguous bounce buffer for prefill->decode transfer of a chunk of
    tokens; packs every layer of a token range so one NIXL/RDMA write ships
    the whole chunk."""

    def __init__(self, num_layers, latent_dim, rope_dim, chunk_tokens, device, dtype=torch.float16):
        self.chunk_tokens = chunk_tokens
        self.latent_stage = torch.empty((num_layers, chunk_tokens, latent_dim), dtype=dtype, device=device)
        self.rope_stage = torch.empty((num_layers, chunk_tokens, rope_dim), dtype=dtype, device=device)

    def pack(self, cache, slot_ids):
        n = len(slot_ids)
        for layer in range(cache.num_layers):
            self.latent_stage[layer, :n] = cache.latent_cache[layer][slot_ids]
            self.rope_stage[layer, :n] = cache.rope_cache[layer][slot_ids]

    def unpack(self, cache, slot_ids):
        n = len(slot_ids)
        assert n <= self.chunk_tokens, (n, self.chunk_tokens)
        for layer in range(cache.num_layers):
            cache.latent_cache[layer][slot_ids] = self.latent_stage[layer, :n]
            cache.rope_cache[layer][slot_ids] = self.rope_stage[layer, :n]

    def nbytes(self):
        return self.latent_stage.nbytes + self.rope_stage.nbytes
