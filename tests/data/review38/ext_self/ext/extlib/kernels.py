def configure(pool, dtype):
    pool.store_dtype = dtype
