def make_hook(dtype):
    def hook(pool):
        pool.store_dtype = dtype
    return hook
