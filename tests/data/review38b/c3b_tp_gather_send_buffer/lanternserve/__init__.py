"""lanternserve: in-house KV cache plumbing for the chat serving stack."""
