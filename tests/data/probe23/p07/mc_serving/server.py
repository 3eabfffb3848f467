import os

from mc_serving.device_pool import Fp8PagedPool
from mc_serving.mooncake_store import MooncakeStoreConfig, StagingSegment
from mc_serving.spec import KVSpec
from mc_serving.transfer_engine import TransferEngine


def bootstrap(device=None, staging_device=None):
    spec = KVSpec.from_env()
    num_pages = int(os.environ.get("MC_NUM_PAGES", 20000))
    pool = Fp8PagedPool(spec, num_pages, device=device or os.environ.get(
        "MC_DEVICE", "cuda"))
    store_cfg = MooncakeStoreConfig.from_env()
    staging = StagingSegment(spec, store_cfg, device=staging_device or "cpu")
    engine = TransferEngine(store_cfg.local_hostname, store_cfg.protocol,
                            store_cfg.device_name)
    engine.register_memory("staging", staging.region)
    return pool, staging, engine


if __name__ == "__main__":
    bootstrap()
