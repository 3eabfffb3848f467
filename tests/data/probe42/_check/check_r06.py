from common import add_tree, per_token, verify

add_tree("r06")
from handoff.bootstrap import setup_transfer  # noqa: E402
from handoff.settings import DisaggSettings  # noqa: E402

settings = DisaggSettings()
settings.device = "meta"
settings.recv_device = "meta"
dev, recv = setup_transfer(settings)
dslots = dev.k_cache.shape[1]
assert dslots == settings.max_total_tokens
rslots = recv.k_pages.shape[0] * recv.k_pages.shape[2]
assert rslots == settings.recv_pages * settings.page_size
measured = {
    "k_cache": (per_token(recv.k_pages, rslots), per_token(dev.k_cache, dslots)),
    "v_cache": (per_token(recv.v_pages, rslots), per_token(dev.v_cache, dslots)),
}
verify("r06", dev, recv, setup_transfer, measured)
