"""osprey_rt: block-scaled low-precision KV cache runtime."""
