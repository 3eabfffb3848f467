import torch

from .settings import QuantKVSettings


def _data_shape(cfg, n):
    return (cfg.num_hidden_layers, n, cfg.kv_heads, cfg.head_dim)


def _scale_shape(cfg, n):
    return (cfg.num_hidden_layers, n, cfg.kv_heads, cfg.head_dim // cfg.scale_group)


# (attribute, dtype field, shape fn, fill)
BUFFER_SPECS = (
    ("k_data", "storage_dtype", _data_shape, None),
    ("v_data", "storage_dtype", _data_shape, None),
    ("k_scale", "scale_dtype", _scale_shape, 1.0),
    ("v_scale", "scale_dtype", _scale_shape, 1.0),
)


class Fp8KVArena:
    def __init__(self, cfg: QuantKVSettings):
        self.cfg = cfg
        self.capacity = cfg.max_tokens
        self.names = []
        for attr, dtype_field, shape_fn, fill in BUFFER_SPECS:
            dtype = cfg.torch_dtype(dtype_field)
            shape = shape_fn(cfg, self.capacity)
            if fill is None:
                buf = torch.empty(shape, dtype=dtype, device=cfg.accel_device)
            else:
                buf = torch.full(shape, fill, dtype=dtype, device=cfg.accel_device)
            setattr(self, attr, buf)
            self.names.append(attr)

    def buffers(self):
        return {n: getattr(self, n) for n in self.names}
