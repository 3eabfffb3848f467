import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from wren_vllm.worker import init_cache_engines

hf = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 8192, "num_attention_heads": 64,
    "num_key_value_heads": 8, "num_hidden_layers": 80, "intermediate_size": 28672,
    "torch_dtype": "bfloat16",
}
argv = ["-tp", "4", "-pp", "2", "--num-gpu-blocks", "6000", "--swap-space", "8"]
dev, swap = init_cache_engines(hf, argv, rank=5, device="meta", swap_device="meta")
assert len(dev.kv_blocks) == len(swap.cpu_blocks) == 40
d, s = dev.kv_blocks[0], swap.cpu_blocks[0]
measured = {"kv_blocks": (per_token(s, s.shape[1] * swap.block_size),
                          per_token(d, d.shape[1] * d.shape[2]))}
verify("r04", dev, swap, init_cache_engines, measured)
