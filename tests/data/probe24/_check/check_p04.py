from _util import assert_all_agree, measure, use_tree, verify

info = use_tree("p04")

from lumen_deploy.pytorch.config import load_engine_config  # noqa: E402
from lumen_deploy.pytorch.engine.cache_engine import build_cache_engines  # noqa: E402

BUFFERS = ["k_cache", "v_cache", "k_scales_zeros", "v_scales_zeros"]


def build(cfg, names=BUFFERS):
    gpu, cpu = build_cache_engines(cfg, device="meta", host_device="meta")
    bs, layers = cfg["cache"]["block_size"], cfg["model"]["num_layers"]
    return gpu, cpu, measure(gpu, cfg["cache"]["num_gpu_blocks"] * bs, layers,
                             cpu, cfg["cache"]["num_cpu_blocks"] * bs, layers, names)


gpu, cpu, measured = build(load_engine_config())

for qp in (8, 4):
    _, _, alt = build(load_engine_config(model__k_head_dim=128, model__v_head_dim=96,
                                         model__num_key_value_heads=8, model__dtype="bfloat16",
                                         cache__block_size=128, cache__quant_policy=qp,
                                         dist__tp=4))
    assert_all_agree(alt, f"alt: quant_policy={qp}, k128/v96, tp4")
gpu0, cpu0, alt = build(load_engine_config(cache__quant_policy=0), ["k_cache", "v_cache"])
assert gpu0.k_scales_zeros == [] and cpu0.k_scales_zeros == []
assert_all_agree(alt, "alt: unquantised fp16")

verify("p04", info, measured, gpu, cpu)
