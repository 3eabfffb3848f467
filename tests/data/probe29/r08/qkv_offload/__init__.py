"""qkv_offload - int8 KV cache (per-token, per-head fp16 scales) with a RAM offload store."""
