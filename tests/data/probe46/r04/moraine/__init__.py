"""moraine: hybrid global/sliding-window KV cache with a host offload tier."""
