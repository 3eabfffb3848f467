import copy

DEFAULTS = {
    "model": {
        "num_hidden_layers": 28,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "torch_dtype": "float16",
    },
    "parallel": {"tensor_parallel_size": 4},
    "cache": {
        "gpu_slots": 32768,
        "swap_slots": 65536,
        "device": "cuda",
        "swap_device": "cpu",
    },
}


def load_config(**cache_overrides):
    cfg = copy.deepcopy(DEFAULTS)
    cfg["cache"].update(cache_overrides)
    return cfg
