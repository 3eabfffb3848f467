import common

common.force_meta()
common.add_tree("r02")

from kvquant.config import CacheConfig  # noqa: E402
from kvquant.worker import build_kv_pools  # noqa: E402

cfg = CacheConfig(num_gpu_pages=256, num_cpu_pages=512)
dev, host = build_kv_pools(cfg)
measured = {}
for attr in ("k_pages", "v_pages", "k_scales", "v_scales"):
    # per page: device lists of [pages, ...]; host [layers, pages, ...]
    measured[attr] = (common.per_dim(getattr(host, attr), 1), common.per_dim(getattr(dev, attr), 0))
common.verify("r02", dev, host, build_kv_pools, measured)
