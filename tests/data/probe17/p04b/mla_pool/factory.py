from .stores import LatentCpuStore, LatentGpuStore, PackedLatentCpuStore

HOST_STORES = {
    "plain": LatentCpuStore,
    "packed": PackedLatentCpuStore,
}


def create(n_layers=61, capacity=100_000, host_capacity=400_000, host_kind="packed",
           device="cuda", host_device="cpu", pin=True):
    gpu = LatentGpuStore(n_layers, capacity, device=device)
    host = HOST_STORES[host_kind](gpu, host_capacity, pin=pin, device=host_device)
    return gpu, host
