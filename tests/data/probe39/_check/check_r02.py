import common

common.add_tree("r02")
from mla_disagg.prefill_worker import setup_prefill_kv

dev, stage = setup_prefill_kv(device="meta", staging_device="meta")
measured = {
    "kv_latent": (common.per_token(stage.latent, stage.chunk_tokens),
                  common.per_token(dev.kv_latent, dev.num_slots)),
}
common.verify("r02", dev, stage, setup_prefill_kv, measured)
