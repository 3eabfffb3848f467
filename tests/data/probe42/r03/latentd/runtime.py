from .config import MLACacheConfig
from .device_vault import LatentVault
from .offload_vault import LatentOffloadVault


def open_vaults(cfg=None):
    cfg = cfg or MLACacheConfig()
    device_vault = LatentVault.from_config(cfg)
    offload_vault = LatentOffloadVault.from_config(cfg)
    return device_vault, offload_vault
