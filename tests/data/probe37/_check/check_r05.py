from common import setup, bpt, compare

setup("r05")
from mlc_kv.engine import create_kv_state

cache, spill = create_kv_state(device="meta")
measured = {"pages": (bpt([(spill.pages, spill.capacity_tokens, spill.num_layers)]),
                      bpt([(cache.pages, cache.capacity_tokens, cache.num_layers)]))}
compare("r05", measured)
