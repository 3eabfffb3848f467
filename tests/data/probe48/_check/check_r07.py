import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from egretmamba.setup import allocate_state_tiers

cfg = SimpleNamespace(
    architectures=["Mamba2ForCausalLM"], hidden_size=4096, expand=2, num_heads=128,
    head_dim=64, n_groups=8, state_size=128, conv_kernel=4, num_hidden_layers=64,
    torch_dtype="bfloat16",
)
dev, host = allocate_state_tiers(cfg, tp_size=4, max_running=256, max_paused=1024,
                                 device="meta", host_device="meta")
measured = {}
for a in ("conv_state", "ssm_state"):
    d, o = getattr(dev, a), getattr(host, a)
    assert len(d) == len(o) == 64
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r07", dev, host, allocate_state_tiers, measured)
