"""Engine-side construction of the latent caches."""
from .device_pool import LatentPagePool
from .host_arena import LatentOffloadArena
from .layout import LatentLayout


def build_latent_caches(hf_config: dict, server_args: dict, device="cuda"):
    layout = LatentLayout(
        num_layers=hf_config["num_hidden_layers"],
        kv_lora_rank=hf_config.get("kv_lora_rank", 512),
        rope_dim=hf_config.get("qk_rope_head_dim", 64),
        dtype_name=server_args.get("kv_cache_dtype", "bf16"),
    )
    num_slots = server_args["max_total_tokens"]
    page_size = server_args.get("page_size", 64)
    device_pool = LatentPagePool(layout, num_slots, page_size, device=device)
    host_tokens = int(num_slots * server_args.get("host_ratio", 2.0))
    host_tokens -= host_tokens % page_size
    host_arena = LatentOffloadArena(
        layout, host_tokens, pin_memory=server_args.get("pin_host", True)
    )
    return device_pool, host_arena
