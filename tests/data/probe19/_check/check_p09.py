from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import add_tree, per_token_layer, verify  # noqa: E402

add_tree("p09")
from kvxfer import build_endpoints  # noqa: E402

snd, rcv = build_endpoints(prefill_device="meta", decode_device="meta")
assert len(snd.kv_pages) == len(rcv.kv_pages) == 32
verify("p09", {
    "kv_pages (K+V)": (
        per_token_layer(rcv.kv_pages, rcv.num_pages * rcv.page_size, rcv.num_layers),
        per_token_layer(snd.kv_pages, snd.num_pages * snd.page_size, snd.num_layers),
    ),
})
