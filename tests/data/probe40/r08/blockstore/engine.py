from .device_blocks import DeviceBlockTable
from .host_blocks import HostBlockCache
from .settings import EngineSettings
from .spec import BlockSpec


def build_block_stores(settings: EngineSettings = None, device="cuda", pin_memory=True):
    s = settings or EngineSettings()
    spec = BlockSpec(
        num_layers=s.num_layers,
        kv_heads=s.num_kv_heads // s.tp_size,
        head_dim=s.head_dim,
        dtype=s.dtype,
    )
    table = DeviceBlockTable(spec, s.num_gpu_blocks, block_size=s.block_size, device=device)
    host = HostBlockCache(spec, s.num_host_blocks, pin_memory=pin_memory)
    return table, host
