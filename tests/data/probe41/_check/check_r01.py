"""r01: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r01")
from quill.config import QuillConfig
from quill.engine import build_kv_tiers

cfg = QuillConfig(device="meta")
arena, spill = build_kv_tiers(cfg, host_device="meta")
dev_slots = arena.num_pages * arena.page_size
host_slots = spill.num_pages * spill.page_size
measured = {
    attr: (per_token(getattr(spill, attr), host_slots), per_token(getattr(arena, attr), dev_slots))
    for attr in ("k_pages", "v_pages")
}
verify("r01", arena, spill, build_kv_tiers, measured)
