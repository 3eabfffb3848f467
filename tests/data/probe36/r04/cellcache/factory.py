from dataclasses import dataclass

from .dtypes import CacheDType
from .gpu import DeviceCellCache
from .offload import OffloadCellStore, OffloadConfig


@dataclass
class LlamaShape:
    n_layer: int = 32
    n_head: int = 32
    n_head_kv: int = 8
    n_embd: int = 4096
    kv_quant_group: int = 128


def build_offload_pair(device="cuda", n_cells=65536, offload_cells=262144):
    shape = LlamaShape()
    head_dim = shape.n_embd // shape.n_head
    dtype = CacheDType("fp8_e4m3")
    gpu = DeviceCellCache(
        n_layer=shape.n_layer,
        n_cells=n_cells,
        n_heads=shape.n_head_kv,
        head_dim=head_dim,
        dtype=dtype,
        scale_group=shape.kv_quant_group,
        device=device,
    )
    store = OffloadCellStore(
        OffloadConfig(n_cells=offload_cells, dtype=dtype, pin=device != "meta"),
        n_layer=shape.n_layer,
        n_heads=shape.n_head_kv,
        head_dim=head_dim,
        device="meta" if device == "meta" else "cpu",
    )
    return gpu, store
