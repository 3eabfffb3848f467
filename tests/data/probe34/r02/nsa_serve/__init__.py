"""SGLang fork: DeepSeek sparse attention (NSA/DSA) memory pools with HiCache."""
