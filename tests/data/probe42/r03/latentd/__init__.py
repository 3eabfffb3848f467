"""latentd: MLA latent KV vaults with an offload tier."""
from .config import MLACacheConfig
from .runtime import open_vaults

__all__ = ["MLACacheConfig", "open_vaults"]
