import torch

# group size used by the fp8 quantization kernels for per-group scales
QUANT_GROUP = 64


def host_layout(cfg, tokens):
    """Return {name: (dtype, shape)} for the host staging buffers."""
    data = (torch.uint8, (cfg.num_hidden_layers, tokens, cfg.kv_heads * cfg.head_dim))
    groups = cfg.kv_heads * (cfg.head_dim // QUANT_GROUP)
    scale = (torch.float32, (cfg.num_hidden_layers, tokens, groups))
    return {"k_data": data, "v_data": data, "k_scale": scale, "v_scale": scale}


class Fp8KVOffload:
    def __init__(self, cfg, tokens=None):
        self.cfg = cfg
        self.capacity = tokens or cfg.offload_tokens
        self.store = {}
        for name, (dtype, shape) in host_layout(cfg, self.capacity).items():
            self.store[name] = torch.empty(shape, dtype=dtype, device=cfg.host_device)

    def __getitem__(self, name):
        return self.store[name]

    def pull(self, arena, src_idx, dst_idx):
        for name, buf in arena.buffers().items():
            flat = buf[:, src_idx].reshape(buf.shape[0], len(src_idx), -1)
            if flat.dtype != torch.float32:
                flat = flat.view(torch.uint8)
            self.store[name][:, dst_idx] = flat.to(self.store[name].device)
