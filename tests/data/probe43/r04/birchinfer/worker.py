from .kv_gpu import HybridGpuKV
from .kv_host import HybridHostKV
from .hparams import CacheBudget, HybridModelArgs


def init_kv_stores(args: HybridModelArgs = None, budget: CacheBudget = None):
    args = args or HybridModelArgs()
    budget = budget or CacheBudget()
    gpu_kwargs = dict(args=args, n_tokens=budget.gpu_tokens, device=budget.gpu_device)
    host_kwargs = dict(gpu_kwargs)
    host_kwargs.update(n_tokens=budget.host_tokens, device=budget.host_device)
    return HybridGpuKV(**gpu_kwargs), HybridHostKV(**host_kwargs)
