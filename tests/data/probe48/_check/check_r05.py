import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from ibisinfer.launch import prepare_caches

cfg = SimpleNamespace(
    architectures=["Qwen2VLForConditionalGeneration"], torch_dtype="bfloat16",
    text_config=SimpleNamespace(hidden_size=3584, num_attention_heads=28, num_key_value_heads=4,
                                num_hidden_layers=28, intermediate_size=18944),
    vision_config=SimpleNamespace(embed_dim=1280, depth=32, out_hidden_size=3584),
)
opts = SimpleNamespace(kv_format="fp8", tp_size=2, max_num_tokens=650_000, max_image_tokens=60_000,
                       swap_tokens=1_400_000, swap_image_tokens=120_000)
dev, swap = prepare_caches(cfg, opts, device="meta", swap_device="meta")
assert len(dev.key_cache) == len(swap.key_cache) == 28
measured = {}
for a in ("key_cache", "value_cache"):
    d, o = getattr(dev, a)[0], getattr(swap, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
measured["vision_embeds"] = (per_token(swap.vision_embeds, swap.vision_embeds.shape[0]),
                             per_token(dev.vision_embeds, dev.vision_embeds.shape[0]))
verify("r05", dev, swap, prepare_caches, measured)
