import common

common.force_meta()
common.add_tree("r06")

from whisperserve.engine import build_cache_pools  # noqa: E402

hf = {"d_model": 1280, "decoder_attention_heads": 20, "decoder_layers": 32,
      "max_source_positions": 1500, "torch_dtype": "float16"}
dev, host = build_cache_pools(hf, max_tokens=4096, max_requests=8, host_requests=32)
measured = {
    # self_kv per token (dim 2), cross_kv per request slot (dim 2)
    "self_kv": (common.per_dim(host.self_kv, 2), common.per_dim(dev.self_kv, 2)),
    "cross_kv": (common.per_dim(host.cross_kv, 2), common.per_dim(dev.cross_kv, 2)),
}
common.verify("r06", dev, host, build_cache_pools, measured)
