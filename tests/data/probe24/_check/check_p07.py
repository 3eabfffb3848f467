from _util import assert_all_agree, measure, use_tree, verify

info = use_tree("p07")

from zephyr_infer.inference.config import DEFAULT_INI, parse_config  # noqa: E402
from zephyr_infer.inference.engine_factory import build_inference_engine  # noqa: E402

BUFFERS = ["key_cache", "value_cache"]


def build(text):
    eng = build_inference_engine(text, device="meta")
    cp = parse_config(text)
    bs = cp["state_manager"].getint("block_size")
    tgt, draft = eng.kv_cache, eng.draft_cache
    return tgt, draft, measure(
        tgt, cp["state_manager"].getint("num_blocks") * bs, cp["model"].getint("num_layers"),
        draft, cp["speculative"].getint("draft_num_blocks") * bs,
        cp["speculative"].getint("draft_num_layers"), BUFFERS)


tgt, draft, measured = build(DEFAULT_INI)

alt_ini = (DEFAULT_INI.replace("head_size = 128", "head_size = 64")
           .replace("dtype = bf16", "dtype = fp32")
           .replace("num_key_value_heads = 8", "num_key_value_heads = 2")
           .replace("tensor_parallel = 2", "tensor_parallel = 4")
           .replace("draft_num_blocks = 4096", "draft_num_blocks = 512"))
_, _, alt = build(alt_ini)
assert_all_agree(alt, "alt: head 64, fp32, 2 kv heads / tp4")

verify("p07", info, measured, tgt, draft)
