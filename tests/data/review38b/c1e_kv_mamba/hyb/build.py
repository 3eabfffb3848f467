from dataclasses import dataclass

import torch

from .pools import KVPool, MambaStatePool


@dataclass
class AttnCfg:
    max_tokens: int = 1024
    kv_heads: int = 8
    head_dim: int = 128
    attn_layers: int = 4


@dataclass
class MambaCfg:
    max_reqs: int = 64
    mamba_heads: int = 64
    state: int = 128
    conv: int = 4
    mamba_layers: int = 28


def _attn_kwargs(c, device):
    return dict(size=c.max_tokens, head_num=c.kv_heads, head_dim=c.head_dim, layer_num=c.attn_layers, dtype=torch.bfloat16, device=device)


def _mamba_kwargs(c, device):
    return dict(size=c.max_reqs, head_num=c.mamba_heads, head_dim=c.state, conv_dim=c.conv, layer_num=c.mamba_layers, dtype=torch.float32, device=device)


def build_hybrid(attn: AttnCfg, mamba: MambaCfg, device="cuda"):
    kv = KVPool(**_attn_kwargs(attn, device))
    states = MambaStatePool(**_mamba_kwargs(mamba, device))
    return kv, states


if __name__ == "__main__":
    kv, st = build_hybrid(AttnCfg(), MambaCfg(), device="meta")
    for b in (kv.kv_buffer[0], st.state_buffer[0]):
        print(b[0].numel() * b.element_size())
