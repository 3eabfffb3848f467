from quasar_serve.kv import device_pool, host_pool  # noqa: F401  (populate registry)
