from .knobs import KVKnobs
from .int8_pool import Int8KVPool
from .staging import PinnedKVStage


def setup_kv(knobs=None):
    knobs = knobs or KVKnobs()
    pool = Int8KVPool(knobs)
    stage = PinnedKVStage(knobs)
    return pool, stage


def memory_report(pool, stage):
    def total(ts):
        return sum(t.numel() * t.element_size() for t in ts)
    gpu = total(pool.k_q + pool.v_q + pool.k_s + pool.v_s)
    host = sum(t.numel() * t.element_size()
               for t in (stage.kq_bytes, stage.vq_bytes, stage.ks_bytes, stage.vs_bytes))
    return {"gpu_bytes": gpu, "host_bytes": host,
            "gpu_tokens": pool.tokens, "host_tokens": stage.tokens}
