"""kestrel: LLM server with quantized KV cache and host-side cache mirroring."""
