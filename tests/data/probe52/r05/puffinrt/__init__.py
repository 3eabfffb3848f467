"""puffinrt: low-precision KV runtime."""
