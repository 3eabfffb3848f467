import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from gannet.disagg import ServerArgs, start_prefill_instance

hf = {
    "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 7168, "num_attention_heads": 128,
    "num_hidden_layers": 61, "kv_lora_rank": 512, "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128, "v_head_dim": 128, "q_lora_rank": 1536, "torch_dtype": "bfloat16",
}
server = ServerArgs(kv_cache_dtype="fp8_e4m3", attention_backend="flashmla", page_size=64,
                    prefill_pages=6000, decode_pages=20000, device="meta", decode_device="meta")
dev, dec = start_prefill_instance(hf, server)
assert len(dev.kv_buffer) == len(dec.kv_buffer) == 61
d, o = dev.kv_buffer[0], dec.kv_buffer[0]
measured = {"kv_buffer": (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[1]))}
verify("r07", dev, dec, start_prefill_instance, measured)
