from _util import assert_all_agree, measure, use_tree, verify

info = use_tree("p01")

from swiftserve.config import CacheConfig, ModelConfig, ParallelConfig  # noqa: E402
from swiftserve.worker.cache_engine import CacheEngine  # noqa: E402

BUFFERS = ["key_caches", "value_caches"]


def build(cc, mc, pc):
    eng = CacheEngine(cc, mc, pc, device="meta", host_device="meta")
    layers = mc.num_hidden_layers // pc.pipeline_parallel_size
    return eng.gpu_cache, eng.cpu_cache, measure(
        eng.gpu_cache, cc.num_gpu_blocks * cc.block_size, layers,
        eng.cpu_cache, cc.num_cpu_blocks * cc.block_size, layers, BUFFERS)


gpu, cpu, measured = build(CacheConfig(), ModelConfig(), ParallelConfig())

# robustness: other geometry / dtype / TP
_, _, alt = build(CacheConfig(block_size=32, cache_dtype="fp8", num_cpu_blocks=100),
                  ModelConfig(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8,
                              num_hidden_layers=32, head_dim=256, dtype="bfloat16"),
                  ParallelConfig(tensor_parallel_size=4, pipeline_parallel_size=2))
assert_all_agree(alt, "alt: fp8, head 256, gqa, tp4 pp2")

verify("p01", info, measured, gpu, cpu)
