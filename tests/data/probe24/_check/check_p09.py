from _util import assert_all_agree, measure, use_tree, verify

import torch  # noqa: E402

info = use_tree("p09")

from mlc_paged.serve.engine import ServingEngine  # noqa: E402
from mlc_paged.serve.geometry import LLAMA3_8B  # noqa: E402

BUFFERS = ["k_pages", "v_pages"]


def build(model_config, num_pages, page_size, chunk):
    eng = ServingEngine(model_config, num_pages=num_pages, page_size=page_size,
                        chunk_tokens=chunk, device="meta", staging_device="meta")
    layers = (model_config or LLAMA3_8B)["num_hidden_layers"]
    return eng.kv_cache, eng.staging, measure(eng.kv_cache, num_pages * page_size, layers,
                                              eng.staging, chunk, layers, BUFFERS)


cache, staging, measured = build(None, 2048, 16, 256)

alt_cfg = dict(num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
               head_dim=192, v_head_dim=128, dtype=torch.float32, tensor_parallel_shards=8)
_, _, alt = build(alt_cfg, 300, 64, 100)
assert_all_agree(alt, "alt: fp32, k192/v128, tp8, odd chunk")

verify("p09", info, measured, cache, staging)
