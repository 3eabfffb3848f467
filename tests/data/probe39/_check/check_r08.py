import common

common.add_tree("r08")
from shardkv.worker import setup_rank_kv

dev, mirror = setup_rank_kv(device="meta", host_device="meta")
dev_tokens = dev.num_pages * dev.page_size
host_tokens = mirror.num_pages * mirror.page_size
measured = {
    "key_pages": (common.per_token(mirror.key_pages, host_tokens),
                  common.per_token(dev.key_pages, dev_tokens)),
    "value_pages": (common.per_token(mirror.value_pages, host_tokens),
                    common.per_token(dev.value_pages, dev_tokens)),
}
common.verify("r08", dev, mirror, setup_rank_kv, measured)
