import os

from _util import measure, use_tree, verify

info = use_tree("p08")
os.environ.pop("EXL_FORGE_BATCH", None)

from exl_forge.loader import load_model_and_caches  # noqa: E402

config, cache, prompt_cache = load_model_and_caches(device="meta", host_device="meta")
measured = measure(cache, 4 * config.max_seq_len, config.num_hidden_layers,
                   prompt_cache, 8 * 2048, config.num_hidden_layers,
                   ["k_packed", "v_packed", "scales"])
verify("p08", info, measured, cache, prompt_cache)
