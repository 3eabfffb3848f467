"""llamacpp_torch - llama.cpp-style context/KV handling re-expressed with torch tensors."""
