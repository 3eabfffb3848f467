from .receiver import TransferRecvReservoir
from .reservoir import DecodeKVReservoir
from .settings import DisaggSettings


def setup_transfer(settings=None):
    settings = settings or DisaggSettings()
    pool = DecodeKVReservoir(
        size=getattr(settings, "max_total_tokens", 8192),
        head_num=settings.num_key_value_heads,
        head_dim=settings.head_dim,
        layer_num=settings.num_hidden_layers,
        dtype=settings.kv_dtype,
        device=settings.device,
    )
    receiver = TransferRecvReservoir(settings)
    return pool, receiver
