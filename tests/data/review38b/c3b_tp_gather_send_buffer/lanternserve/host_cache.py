import torch


class KVSendBuffer:
    """Disaggregated prefill: staging area of the KV shipped to a decode instance that runs
    with a smaller tensor-parallel size. The decode rank receives the heads of
    `src_tp // dst_tp` prefill ranks, so each token row is gathered here wider than one
    prefill rank's slice (heads * src_tp // dst_tp)."""

    def __init__(self, gpu_store, chunk_tokens, src_tp, dst_tp, device="cpu"):
        ref = gpu_store.key_cache[0]
        _, heads, head_dim = ref.shape
        gathered = heads * src_tp // dst_tp
        layers = len(gpu_store.key_cache)
        shape = (layers, chunk_tokens, gathered, head_dim)
        self.k_send = torch.empty(shape, dtype=ref.dtype, device=device)
        self.v_send = torch.empty(shape, dtype=ref.dtype, device=device)
