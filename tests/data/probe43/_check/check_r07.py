import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from ospreyrt.factory import spawn_pools
from ospreyrt.model_cfg import AttnSpec, PagingSpec

dev, host = spawn_pools(AttnSpec(), PagingSpec(device="meta", host="meta"))
measured = {
    "latent_kv": (per_token(host.pages, 384 * 32), per_token(dev.latent_kv, 96 * 32)),
}
verify("r07", dev, host, spawn_pools, measured)
