import logging

from .plan import make_plan
from .pools import RowMirror, RowPool

logger = logging.getLogger(__name__)


def setup(model, cache, world: int, rank: int, device="cuda", host="cpu"):
    logger.info("rank %d of %d: %d heads a rank", rank, world, model.total_kv_heads // world)
    plan = make_plan(model.kv_heads_per_rank, model.head_dim, cache.kind)
    gpu = RowPool(plan, cache.gpu_rows, model.n_layers, device=device)
    cpu = RowMirror.of(gpu, cache.host_rows, device=host)
    return gpu, cpu
