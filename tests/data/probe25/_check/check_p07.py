import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
for _k in ("RELAY_NUM_PAGES", "RELAY_PAGE_SIZE", "RELAY_KV_DTYPE", "RELAY_PEER_PAGES"):
    os.environ.pop(_k, None)
from _util import run, bptl

PEER_ATTR = {"k_layers": "peer_k", "v_layers": "peer_v",
             "k_scales": "peer_k_scale", "v_scales": "peer_v_scale"}


def build(bootstrap):
    agent = bootstrap(device="meta", peer_device="meta")
    loc, peer = agent.local, agent.peer
    out = {}
    for name, pname in PEER_ATTR.items():
        out[name] = (
            bptl(getattr(peer, pname), peer.layout.tokens(), peer.layout.num_layers),
            bptl(getattr(loc, name), loc.layout.tokens(), loc.layout.num_layers),
        )
    return loc, peer, out


run("p07", build)
