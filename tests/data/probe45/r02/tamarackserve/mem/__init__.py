_POOLS = {}


def register_pool(name):
    def deco(cls):
        _POOLS[name] = cls
        return cls

    return deco


def get_pool_cls(name):
    # make sure the modules defining pools have been imported
    from . import host, pools  # noqa: F401

    return _POOLS[name]
