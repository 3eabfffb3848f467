import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl

DRAFT_ATTR = {"k_pages": "draft_k", "v_pages": "draft_v"}


def build(create_engine_caches):
    target, draft = create_engine_caches(device="meta")
    out = {}
    for name, dname in DRAFT_ATTR.items():
        out[name] = (
            bptl(getattr(draft, dname), draft.num_pages * draft.page_size, draft.num_layers),
            bptl(getattr(target, name), target.num_pages * target.page_size, target.num_layers),
        )
    return target, draft, out


run("p10", build)
