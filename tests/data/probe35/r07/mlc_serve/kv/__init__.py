from mlc_serve.kv.registry import create_kv_cache, register_kv_cache  # noqa: F401
from mlc_serve.kv import paged, draft  # noqa: F401  (populate registry)
