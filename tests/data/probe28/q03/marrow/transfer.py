import torch


def _align(n: int, to: int) -> int:
    return -(-n // to) * to


class TransferRegistry:
    def __init__(
        self,
        num_tokens: int,
        head_num: int,
        head_dim: int,
        v_head_dim: int,
        layer_num: int,
        dtype: torch.dtype,
        device: str = "cpu",
        align: int = 4096,
    ):
        self.num_tokens = num_tokens
        esz = torch.finfo(dtype).bits // 8
        k_chunk = num_tokens * head_num * head_dim * esz
        v_chunk = num_tokens * head_num * v_head_dim * esz
        k_span = _align(k_chunk, align)
        self.stride = k_span + _align(v_chunk, align)
        self.region = torch.empty(layer_num * self.stride, dtype=torch.uint8, device=device)
        self.k_regions = [
            self.region.narrow(0, i * self.stride, k_chunk)
            .view(dtype)
            .view(num_tokens, head_num, head_dim)
            for i in range(layer_num)
        ]
        self.v_regions = [
            self.region.narrow(0, i * self.stride + k_span, v_chunk)
            .view(dtype)
            .view(num_tokens, head_num, v_head_dim)
            for i in range(layer_num)
        ]
        self.chunk_lens = [(k_chunk, v_chunk)] * layer_num

    def descriptors(self):
        base = self.region.data_ptr()
        return [
            (base + i * self.stride, k + v) for i, (k, v) in enumerate(self.chunk_lens)
        ]
