"""Pure-Python port of the llama context / KV cache bookkeeping."""
