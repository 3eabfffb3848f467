import torch
from torch import nn

from tern_kv.quant import SCHEMES


class QuantKVArena(nn.Module):
    """All layers in one tensor: codes [L, 2, T, H, D] and qparams [L, 2, T, H, G, P]
    (P = scale[, zero])."""

    def __init__(self, model, serving, device="cuda"):
        super().__init__()
        self.scheme = SCHEMES[serving["kv_quant"]]
        self.num_layers = model["num_hidden_layers"]
        self.heads = model["num_key_value_heads"] // serving.get("tp", 1)
        self.head_dim = model.get("head_dim") or model["hidden_size"] // model["num_attention_heads"]
        self.groups = self.scheme.num_groups(self.head_dim)
        self.num_tokens = serving["gpu_tokens"]
        codes = torch.empty((self.num_layers, 2, self.num_tokens, self.heads, self.head_dim),
                            dtype=self.scheme.code_dtype, device=device)
        qparams = torch.empty((self.num_layers, 2, self.num_tokens, self.heads, self.groups,
                               self.scheme.params_per_group),
                              dtype=self.scheme.param_dtype, device=device)
        self.register_buffer("kv_codes", codes, persistent=False)
        self.register_buffer("kv_qparams", qparams, persistent=False)

    def layer(self, i):
        return self.kv_codes[i], self.kv_qparams[i]
