from . import settings
from .kv_pool import AttnKVPool
from .migrate import MigrationPeerBuffer


def init_stage(pp_rank=0, hf=None, device="cuda"):
    hf = hf or settings.JAMBA_15_MINI
    start, end = settings.stage_range(hf, pp_rank)
    layers = settings.attention_layers(hf, start, end)
    head_dim = hf["hidden_size"] // hf["num_attention_heads"]
    pool = AttnKVPool(layers, settings.KV_SLOTS, hf["num_key_value_heads"], head_dim,
                      settings.KV_CACHE_DTYPE, device=device)
    peer = MigrationPeerBuffer(pool, hf, settings.MIGRATION_SLOTS, device=device)
    return pool, peer
