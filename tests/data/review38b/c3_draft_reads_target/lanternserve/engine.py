from .config import ServeConfig
from .device_cache import GpuKVStore
from .host_cache import EagleDraftKV


def build_kv_stores(cfg=None):
    cfg = cfg or ServeConfig()
    gpu = GpuKVStore(cfg)
    draft = EagleDraftKV(gpu, 4, 64)
    return gpu, draft


if __name__ == "__main__":
    c = ServeConfig(); c.device = "meta"
    g, d = build_kv_stores(c)
    print("target", len(g.key_cache), g.key_cache[0][0].numel() * g.key_cache[0].element_size(),
          "draft", d.draft_k.shape[0], d.draft_k[0, 0].numel() * d.draft_k.element_size())
