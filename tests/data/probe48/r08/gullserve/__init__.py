"""gullserve: int8 KV cache shared between prefill and decode workers."""
