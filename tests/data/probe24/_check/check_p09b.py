"""p09b (a buggy form of p09, written for the auditor's tests): the staging buffer's V is
sized with K's head dim; both sides built through the tree's own engine on the meta device."""
from _util import measure, use_tree, verify

info = use_tree("p09b")

from mlc_paged.serve.engine import ServingEngine  # noqa: E402
from mlc_paged.serve.geometry import DSV2_LITE  # noqa: E402

import sys  # noqa: E402

eng = ServingEngine(None, num_pages=512, page_size=16, chunk_tokens=256, device="meta",
                    staging_device="meta")
assert "p09b" in sys.modules[type(eng.staging).__module__].__file__
layers = DSV2_LITE["num_hidden_layers"]
measured = measure(eng.kv_cache, 512 * 16, layers, eng.staging, 256, layers,
                   ["k_pages", "v_pages"])
verify("p09b", info, measured, eng.kv_cache, eng.staging)
