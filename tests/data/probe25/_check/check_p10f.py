"""p10f (the fixed form of p10, written for the auditor's tests): the MTP draft sizes V with
v_head_dim, so its K and V hold as many bytes per token per layer as the target's, built
through the tree's own create_engine_caches on the meta device."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p10f"))

from _util import bptl  # noqa: E402
from mlcish.serve.engine import create_engine_caches  # noqa: E402

target, draft = create_engine_caches(device="meta")
assert "p10f" in sys.modules[type(draft).__module__].__file__
figures = {
    name: (
        bptl(getattr(draft, other), draft.num_pages * draft.page_size, draft.num_layers),
        bptl(getattr(target, name), target.num_pages * target.page_size, target.num_layers),
    )
    for name, other in {"k_pages": "draft_k", "v_pages": "draft_v"}.items()
}
assert figures == {"k_pages": (6144, 6144), "v_pages": (4096, 4096)}, figures
print("OK")
