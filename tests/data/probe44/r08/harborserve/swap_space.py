import torch


def token_bytes(model_cfg):
    itemsize = getattr(torch, model_cfg["torch_dtype"]).itemsize
    return (model_cfg["num_hidden_layers"] * 2 * model_cfg["num_key_value_heads"]
            * model_cfg["head_dim"] * itemsize)


class CpuSwapSpace:
    """Byte-addressed swap area: one row of token_bytes() per swapped token."""

    def __init__(self, cfg):
        c = cfg["cache"]
        self.slots = c["swap_slots"]
        self.row_bytes = token_bytes(cfg["model"])
        self.buffer = torch.empty((self.slots, self.row_bytes), dtype=torch.uint8,
                                  device=c["swap_device"])

    def swap_out(self, cache, src, dst):
        # [L, 2, n, H, D] -> [n, L*2*H*D] bytes
        rows = cache.kv_cache[:, :, src].permute(2, 0, 1, 3, 4).reshape(len(src), -1)
        self.buffer[dst, : rows[0].numel() * rows.element_size()] = rows.view(torch.uint8)
