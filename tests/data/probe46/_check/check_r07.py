import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from sablemla.hicache import init_latent_tiers
from sablemla.host_store import HostTierSettings

hf = {
    "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 7168, "num_hidden_layers": 61,
    "kv_lora_rank": 512, "qk_rope_head_dim": 64, "num_nextn_predict_layers": 1,
}
dev, host = init_latent_tiers(hf, "fp8_e4m3", num_pages=8000,
                              host=HostTierSettings(layout="page_first", ratio=3.0, device="meta"),
                              device="meta")
assert len(dev.kv_packed) == len(host.kv_packed) == 62
d, o = dev.kv_packed[0], host.kv_packed[0]
measured = {"kv_packed": (per_token(o, o.shape[0]), per_token(d, d.shape[0] * d.shape[1]))}
verify("r07", dev, host, init_latent_tiers, measured)
