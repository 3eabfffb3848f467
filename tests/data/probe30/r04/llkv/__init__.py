"""Port of the llama.cpp unified KV cache to torch tensors."""
