import common

common.force_meta()
common.add_tree("r05")

from spillkv.engine import create_kv_storage  # noqa: E402

dev, host = create_kv_storage({"max_total_tokens": 8192, "spill_tokens": 16384})
measured = {
    # device lists of [slots, heads, dim]; host kv[i] is [layers, tokens, heads, dim]
    "k_cache": (common.per_dim(host.k, 1), common.per_dim(dev.k_cache, 0)),
    "v_cache": (common.per_dim(host.v, 1), common.per_dim(dev.v_cache, 0)),
}
common.verify("r05", dev, host, create_kv_storage, measured)
