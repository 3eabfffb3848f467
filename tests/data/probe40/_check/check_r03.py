from types import SimpleNamespace

import common

common.force_meta()
common.add_tree("r03")

from swa_cache.runtime import build_hybrid_cache  # noqa: E402

model = SimpleNamespace(num_key_value_heads=8, head_dim=256, num_hidden_layers=48,
                        sliding_window=1024, sliding_window_pattern=6)
sched = SimpleNamespace(tp_size=2, max_running=32, page_size=16, max_total_tokens=65536,
                        host_factor=2, kv_dtype="bfloat16")
dev, host = build_hybrid_cache(model, sched)
measured = {
    # device stacked [layers, slots, ...]; host list of [slots, ...]
    "full_kv": (common.per_dim(host.full_kv, 0), common.per_dim(dev.full_kv, 1)),
    "swa_kv": (common.per_dim(host.swa_kv, 0), common.per_dim(dev.swa_kv, 1)),
}
common.verify("r03", dev, host, build_hybrid_cache, measured)
