"""loonrt: fp8 KV runtime with a host swap cache."""
