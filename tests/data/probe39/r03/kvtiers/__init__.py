"""Two-tier (GPU + host) block KV storage."""
