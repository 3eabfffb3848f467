from .device_pool import SparseMLASlotPool
from .geometry import SlotGeometry, SparseMLAConfig, stage_layer_range
from .transfer import DisaggTransferBuffer


def make_disagg_pools(device: str = "cuda", pp_rank: int = 1, pp_size: int = 4):
    cfg = SparseMLAConfig()
    layer_range = stage_layer_range(cfg.num_hidden_layers, pp_rank, pp_size)
    pool = SparseMLASlotPool(
        cfg,
        num_slots=262144,
        page_size=64,
        layer_range=layer_range,
        device=device,
    )
    transfer = DisaggTransferBuffer(
        SlotGeometry.from_config(cfg),
        capacity=16384,
        layer_range=layer_range,
        device="meta" if device == "meta" else "cpu",
    )
    return pool, transfer
