HOST_POOL_TYPES = {}


def register_host_pool(kind):
    def wrap(cls):
        HOST_POOL_TYPES[kind] = cls
        return cls

    return wrap


def create_host_pool(kind, **kwargs):
    from . import host_pool  # noqa: F401  (registers classes)

    return HOST_POOL_TYPES[kind](**kwargs)
