import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from jaxport_serve.decode_state import init_decode_state

state = init_decode_state(device="meta", host_device="meta")
dev, host = state["cache"], state["host"]
d = dev.latent_pages.shape   # (layers, pages, page_size, width)
measured = {
    "latent_pages": (per_token(host.layers, host.layers[0].shape[0]),
                     per_token(dev.latent_pages, d[1] * d[2])),
}
verify("r04", dev, host, init_decode_state, measured)
