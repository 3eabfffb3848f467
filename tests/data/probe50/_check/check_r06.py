import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from ibis_swap.engine import create_kv_spaces

model_cfg = {
    "architectures": ["MixtralForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "num_hidden_layers": 32, "num_local_experts": 8,
    "num_experts_per_tok": 2, "torch_dtype": "bfloat16",
}
over = {"kv_cache_dtype": "fp8_e5m2", "tensor_parallel_size": 2, "num_gpu_blocks": 12000,
        "swap_space_gib": 16}
dev, arena = create_kv_spaces(model_cfg, over, device="meta", swap_device="meta")
assert len(dev.key_blocks) == len(arena.key_rows) == 32
measured = {}
for a, h in (("key_blocks", "key_rows"), ("value_blocks", "value_rows")):
    d, o = getattr(dev, a)[0], getattr(arena, h)[0]
    measured[a] = (per_token(o, o.shape[0] * arena.block_size),
                   per_token(d, d.shape[0] * dev.block_size))
verify("r06", dev, arena, create_kv_spaces, measured)
