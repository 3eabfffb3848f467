"""Host RAM offload store sized from a byte budget."""
import torch


class OffloadKVStore:
    def __init__(self, num_layers, kv_heads, head_dim, budget_bytes, dtype, quantized: bool = False,
                 layout: str = "nhd", device="cpu"):
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.quantized = quantized
        self.layout = layout
        elem = torch.empty((), dtype=dtype).element_size()
        per_layer = 2 * kv_heads * head_dim * elem
        if quantized:
            per_layer += 2 * kv_heads * torch.finfo(torch.float16).bits // 8
        self.max_tokens = budget_bytes // (per_layer * num_layers)
        if layout == "nhd":
            shape = (num_layers, self.max_tokens, kv_heads, head_dim)
        elif layout == "hnd":
            shape = (num_layers, kv_heads, self.max_tokens, head_dim)
        else:
            raise ValueError(layout)
        self.k_data = torch.empty(shape, dtype=dtype, device=device)
        self.v_data = torch.empty(shape, dtype=dtype, device=device)
        if quantized:
            self.k_scale = torch.empty((num_layers, self.max_tokens, kv_heads), dtype=torch.float16, device=device)
            self.v_scale = torch.empty((num_layers, self.max_tokens, kv_heads), dtype=torch.float16, device=device)

    def offload(self, pool, layer, dev_loc, host_loc):
        if self.layout == "nhd":
            self.k_data[layer, host_loc] = pool.k_buffer[layer][dev_loc].cpu()
            self.v_data[layer, host_loc] = pool.v_buffer[layer][dev_loc].cpu()
        else:
            self.k_data[layer][:, host_loc] = pool.k_buffer[layer][dev_loc].transpose(0, 1).cpu()
            self.v_data[layer][:, host_loc] = pool.v_buffer[layer][dev_loc].transpose(0, 1).cpu()
        if self.quantized:
            self.k_scale[layer, host_loc] = pool.k_scale[layer][dev_loc].cpu()
            self.v_scale[layer, host_loc] = pool.v_scale[layer][dev_loc].cpu()
