import os

from _util import assert_all_agree, measure, use_tree, verify

info = use_tree("p06")

for k in [k for k in os.environ if k.startswith("FERRY_")]:
    del os.environ[k]

from ferry_kv import envs  # noqa: E402
from ferry_kv.disagg.bootstrap import bootstrap_pair  # noqa: E402

BUFFERS = ["kv_pages", "kv_scale_pages"]


def build():
    prefill, decode = bootstrap_pair(device="meta", decode_device="meta")
    layers = envs.model_geometry()["num_layers"]
    ps = envs.page_size()
    return prefill, decode, measure(prefill, envs.num_prefill_pages() * ps, layers,
                                    decode, envs.num_decode_pages() * ps, layers, BUFFERS)


prefill, decode, measured = build()

os.environ.update(FERRY_PAGE_SIZE="64", FERRY_NUM_KV_HEADS="16", FERRY_HEAD_DIM="96",
                  FERRY_TP_SIZE="2", FERRY_KV_SCALE_DTYPE="bfloat16", FERRY_NUM_LAYERS="30")
_, _, alt = build()
assert_all_agree(alt, "alt: fp8 + bf16 scales, 16 heads / tp2, head 96")
os.environ.update(FERRY_KV_DTYPE="bfloat16")
_, _, alt = build()
assert_all_agree({"kv_pages": alt["kv_pages"]}, "alt: bf16 unquantised")
for k in [k for k in os.environ if k.startswith("FERRY_")]:
    del os.environ[k]

verify("p06", info, measured, prefill, decode)
