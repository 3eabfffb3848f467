from lightllm_fork.common.basemodel_utils import (get_dtype, get_head_dim,
                                                  get_kv_head_num)
from lightllm_fork.common.cpu_kv_offload import CpuKvCacheOffload
from lightllm_fork.common.mem_manager import MemoryManager

LLAMA3_70B_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 8192,
    "intermediate_size": 28672,
    "num_attention_heads": 64,
    "num_hidden_layers": 80,
    "num_key_value_heads": 8,
    "rope_theta": 500000.0,
    "vocab_size": 128256,
}

START_ARGS = {
    "tp": 4,
    "data_type": "bf16",
    "max_total_token_num": 380_000,
    "enable_cpu_cache": True,
    "cpu_cache_storage_size": 64,  # GB
    "cpu_cache_token_page_size": 64,
}


def init_mem_manager(device="cuda", network_config=LLAMA3_70B_CONFIG, args=START_ARGS):
    mem_manager = MemoryManager(
        args["max_total_token_num"],
        dtype=get_dtype(args["data_type"]),
        head_num=get_kv_head_num(network_config, args["tp"]),
        head_dim=get_head_dim(network_config),
        layer_num=network_config["num_hidden_layers"],
        mem_fraction=0.9,
        device=device,
    )
    cpu_cache = None
    if args["enable_cpu_cache"]:
        cpu_cache = CpuKvCacheOffload(
            network_config,
            world_size=args["tp"],
            data_type=args["data_type"],
            cpu_cache_gb=args["cpu_cache_storage_size"],
            token_page_size=args["cpu_cache_token_page_size"],
            device="meta" if str(device) == "meta" else "cpu",
        )
    return mem_manager, cpu_cache
