"""r04: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r04")
from relay.args import ServeArgs
from relay.worker import launch_prefill_worker

slab, sender = launch_prefill_worker(ServeArgs(device="meta", staging_device="meta"))
measured = {
    attr: (per_token(getattr(sender, attr), sender.capacity), per_token(getattr(slab, attr), slab.size + 1))
    for attr in ("k_buffer", "v_buffer")
}
verify("r04", slab, sender, launch_prefill_worker, measured)
