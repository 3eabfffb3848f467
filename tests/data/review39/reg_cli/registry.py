_POOLS = {}


def register_pool(name):
    def deco(cls):
        _POOLS[name] = cls
        return cls

    return deco


def get_pool_cls(name):
    return _POOLS[name]
