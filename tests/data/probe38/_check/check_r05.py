import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from exq_serve.generator import create_generator_caches

dev, off = create_generator_caches(device="meta", offload_device="meta")
dslots = dev.key_states[0].shape[0] * dev.key_states[0].shape[1]
oslots = off.k_data[0].shape[0]
pairs = {"key_states": "k_data", "value_states": "v_data",
         "key_scales": "k_scale", "value_scales": "v_scale"}
measured = {d: (per_token(getattr(off, o), oslots), per_token(getattr(dev, d), dslots))
            for d, o in pairs.items()}
verify("r05", dev, off, create_generator_caches, measured)
