from .plan import make_plan
from .pools import RowMirror, RowPool


def setup(model, cache, world: int, device="cuda", host="cpu"):
    plan = make_plan(model.kv_heads // world, model.head_dim, cache.kind)
    gpu = RowPool(plan, cache.gpu_rows, model.n_layers, device=device)
    cpu = RowMirror.of(gpu, cache.host_rows, device=host)
    return gpu, cpu
