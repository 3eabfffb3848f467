"""Host staging area for KV hand-off between pipelines.

Token-major and type-erased: fp8 payload is kept as uint8, scales as fp32,
one row per token covering every layer."""
import torch


class HostStagingPool:
    def __init__(self, device_pool, num_tokens: int, device="cpu"):
        self.num_tokens = num_tokens
        n_pages, two, n_layers, page, heads, head_dim = device_pool.blocks.shape
        payload_row = two * n_layers * heads * head_dim
        scale_row = two * n_layers * heads
        self.kv_payload = device_pool.blocks.new_empty(
            (num_tokens, payload_row), dtype=torch.uint8, device=device)
        self.kv_scales = device_pool.scales.new_empty(
            (num_tokens, scale_row), device=device)

    def stage(self, device_pool, pages: torch.Tensor, dst: torch.Tensor) -> None:
        blk = device_pool.blocks[pages].permute(0, 3, 1, 2, 4, 5).flatten(0, 1)
        scl = device_pool.scales[pages].permute(0, 3, 1, 2, 4).flatten(0, 1)
        self.kv_payload[dst] = blk.reshape(blk.shape[0], -1).view(torch.uint8).to(self.kv_payload.device)
        self.kv_scales[dst] = scl.reshape(scl.shape[0], -1).to(self.kv_scales.device)

    def unstage(self, device_pool, src: torch.Tensor, pages: torch.Tensor) -> None:
        n_pages, two, n_layers, page, heads, head_dim = device_pool.blocks.shape
        rows = self.kv_payload[src].to(device_pool.blocks.device)
        rows = rows.view(device_pool.blocks.dtype).reshape(-1, page, two, n_layers, heads, head_dim)
        device_pool.blocks[pages] = rows.permute(0, 2, 3, 1, 4, 5)
        scl = self.kv_scales[src].to(device_pool.scales.device)
        device_pool.scales[pages] = scl.reshape(-1, page, two, n_layers, heads).permute(0, 2, 3, 1, 4)

    @property
    def bytes_per_token(self) -> int:
        return (self.kv_payload[0].numel() * self.kv_payload.element_size()
                + self.kv_scales[0].numel() * self.kv_scales.element_size())
