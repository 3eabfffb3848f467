import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from ternserve.hierarchy import init_mla_tiers

hf = {
    "architectures": ["DeepseekV2ForCausalLM"], "hidden_size": 2048, "num_attention_heads": 16,
    "num_key_value_heads": 16, "num_hidden_layers": 27, "kv_lora_rank": 512,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "q_lora_rank": None,
    "torch_dtype": "bfloat16",
}
dev, host = init_mla_tiers(hf, num_slots=900_000, kv_cache_dtype="fp8_e4m3", host_gib=48,
                           page_size=64, device="meta", host_device="meta")
assert len(dev.kv_buffer) == host.kv_buffer.shape[0] == 27
d, o = dev.kv_buffer[0], host.kv_buffer[0]
measured = {"kv_buffer": (per_token(o, o.shape[0]), per_token(d, d.shape[0]))}
verify("r03", dev, host, init_mla_tiers, measured)
