from mlakv.latent_pool import LatentKVPool
from mlakv.offload import LatentOffloadPool


class Server:
    def __init__(self, num_layers: int, gpu_tokens: int, host_ratio: float):
        self.kv = LatentKVPool(num_layers, gpu_tokens)
        self.host_kv = LatentOffloadPool(self.kv, ratio=host_ratio)
