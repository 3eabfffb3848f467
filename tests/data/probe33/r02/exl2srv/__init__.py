"""ExLlamaV2-flavoured inference server: quantized KV cache plus a CPU swap copy."""
