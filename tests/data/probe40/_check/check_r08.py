import common

common.force_meta()
common.add_tree("r08")

from blockstore.engine import build_block_stores  # noqa: E402
from blockstore.settings import EngineSettings  # noqa: E402

dev, host = build_block_stores(EngineSettings(num_gpu_blocks=512, num_host_blocks=1024))
measured = {
    # per block: device [layers, 2, blocks, ...]; host [blocks, ...]
    "kv_blocks": (common.per_dim(host.kv_blocks, 0), common.per_dim(dev.kv_blocks, 2)),
}
common.verify("r08", dev, host, build_block_stores, measured)
