import common

common.force_meta()
common.add_tree("r01")

from latentserve.engine import build_latent_caches  # noqa: E402

hf = {"num_hidden_layers": 61, "kv_lora_rank": 512, "qk_rope_head_dim": 64}
args = {"max_total_tokens": 4096, "page_size": 64, "host_ratio": 2.0, "kv_cache_dtype": "bf16"}
dev, host = build_latent_caches(hf, args)
measured = {
    # device: [layers, slots, 1, width] -> per slot along dim 1
    "latent": (common.per_dim(host.latent, 0), common.per_dim(dev.latent, 1)),
}
common.verify("r01", dev, host, build_latent_caches, measured)
