import common

common.force_meta()
common.add_tree("r04")

from pdlink.bootstrap import build_pd_pools  # noqa: E402

dev, peer = build_pd_pools(num_layers=28, kv_heads=4, head_dim=128, page_size=64,
                           tp_size=2, dtype="bfloat16", num_pages=512)
measured = {
    # [layers, pages, page_size, heads, dim] -> per page
    "k_buf": (common.per_dim(peer.k_buf, 1), common.per_dim(dev.k_buf, 1)),
    "v_buf": (common.per_dim(peer.v_buf, 1), common.per_dim(dev.v_buf, 1)),
}
common.verify("r04", dev, peer, build_pd_pools, measured)
