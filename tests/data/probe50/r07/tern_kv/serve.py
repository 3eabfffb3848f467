from tern_kv.arena import QuantKVArena
from tern_kv.offload_tier import QuantOffloadTier


def bring_up_kv(model, serving, device="cuda", offload_device="cpu"):
    arena = QuantKVArena(model, serving, device=device)
    tier = QuantOffloadTier(
        num_layers=model["num_hidden_layers"],
        kv_heads=model["num_key_value_heads"] // serving.get("tp", 1),
        head_dim=model.get("head_dim") or model["hidden_size"] // model["num_attention_heads"],
        kv_quant=serving["kv_quant"],
        budget_gib=serving.get("offload_gib", 16),
        device=offload_device,
    )
    return arena, tier
