import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p08"))
from _util import bptl, verify  # noqa: E402
from mlc_paged.runtime import create_kv_state  # noqa: E402

cache, spill = create_kv_state(device="meta", spill_device="meta")
verify("p08", "spill", {
    "pages": (
        bptl(spill.pages, spill.num_pages * spill.page_size, spill.num_layers),
        bptl(cache.pages, cache.num_pages * cache.page_size, cache.num_layers),
    ),
})
