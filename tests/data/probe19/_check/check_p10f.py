from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import add_tree, per_token_layer, verify  # noqa: E402

add_tree("p10f")
from fp8kv import create_kv_stack  # noqa: E402

defaults = {"layers": 36, "kv_heads": 8, "head_dim": 128, "num_slots": 200_000,
            "staging_tokens": 8192, "kv_format": "e4m3", "per_token_scales": True}
dev, host = create_kv_stack(defaults, device="meta", host_device="meta")
assert dev.layers == host.layers == 36
figures = ({
    "data (K+V fp8)": (per_token_layer(host.data, host.num_slots, host.layers),
                       per_token_layer(dev.data, dev.num_slots, dev.layers)),
    "scales (K+V fp32 per head)": (per_token_layer(host.scales, host.num_slots, host.layers),
                                   per_token_layer(dev.scales, dev.num_slots, dev.layers)),
})

assert all(h == d for h, d in figures.values()), figures
print("OK p10f")
