import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from heronserve.runtime import init_page_pools
from heronserve.settings import CacheSettings

model = SimpleNamespace(
    architectures=["Phi3ForCausalLM"], hidden_size=5120, num_attention_heads=40,
    num_key_value_heads=10, num_hidden_layers=40, intermediate_size=17920,
    torch_dtype="bfloat16",
)
settings = CacheSettings(tp_size=2, gpu_tokens=300_000, host_tokens=1_500_001)
dev, host = init_page_pools(model, settings, device="meta", host_device="meta")
assert len(dev.layers) == len(host.layers) == 40
measured = {}
for a in ("k_pages", "v_pages"):
    d, o = getattr(dev, a)[0], getattr(host, a)[0]
    measured[a] = (per_token(o, o.shape[0] * o.shape[2]), per_token(d, d.shape[0] * d.shape[1]))
verify("r03", dev, host, init_page_pools, measured)
