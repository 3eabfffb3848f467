import torch
from gpu_cache import GpuKVCache


class CpuKVMirror:
    def __init__(self, gpu_cache: GpuKVCache, num_slots: int, verbose: bool = False,
                 use_staging: bool = False,
                 use_hugepages: bool = False,
                 async_copy: bool = False,
                 prefetch: bool = False,
                 check_nan: bool = False,
                 enable_metrics: bool = False,
                 numa_bind: bool = False,
                 lazy_init: bool = False,
                 zero_fill: bool = False,
                 write_through: bool = False):
        self.gpu_cache = gpu_cache
        self.num_slots = num_slots
        # no fp8 arithmetic on CPU: keep the mirror in half precision
        if gpu_cache.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.dtype = torch.float16
        else:
            self.dtype = gpu_cache.dtype
        self.verbose = verbose
        self.use_staging = use_staging
        self.use_hugepages = use_hugepages
        self.async_copy = async_copy
        self.prefetch = prefetch
        self.check_nan = check_nan
        self.enable_metrics = enable_metrics
        self.numa_bind = numa_bind
        self.lazy_init = lazy_init
        self.zero_fill = zero_fill
        self.write_through = write_through
        self.verbose_mode = self._verbose_mode()
        self.use_staging_mode = self._use_staging_mode()
        self.use_hugepages_mode = self._use_hugepages_mode()
        self.async_copy_mode = self._async_copy_mode()
        self.prefetch_mode = self._prefetch_mode()
        self.check_nan_mode = self._check_nan_mode()
        self.enable_metrics_mode = self._enable_metrics_mode()
        self.numa_bind_mode = self._numa_bind_mode()
        self.lazy_init_mode = self._lazy_init_mode()
        self.zero_fill_mode = self._zero_fill_mode()
        self.write_through_mode = self._write_through_mode()
        modes = [self.verbose_mode, self.use_staging_mode, self.use_hugepages_mode, self.async_copy_mode, self.prefetch_mode, self.check_nan_mode, self.enable_metrics_mode, self.numa_bind_mode, self.lazy_init_mode, self.zero_fill_mode, self.write_through_mode]
        self.description = ",".join(modes)
        shape = (gpu_cache.n_layers, num_slots, gpu_cache.n_kv_heads, gpu_cache.head_size)
        self.k = torch.empty(shape, dtype=self.dtype, device="cpu")
        self.v = torch.empty(shape, dtype=self.dtype, device="cpu")


    def _verbose_mode(self):
        return "verbose_on" if self.verbose else "verbose_off"

    def _use_staging_mode(self):
        return "use_staging_on" if self.use_staging else "use_staging_off"

    def _use_hugepages_mode(self):
        return "use_hugepages_on" if self.use_hugepages else "use_hugepages_off"

    def _async_copy_mode(self):
        return "async_copy_on" if self.async_copy else "async_copy_off"

    def _prefetch_mode(self):
        return "prefetch_on" if self.prefetch else "prefetch_off"

    def _check_nan_mode(self):
        return "check_nan_on" if self.check_nan else "check_nan_off"

    def _enable_metrics_mode(self):
        return "enable_metrics_on" if self.enable_metrics else "enable_metrics_off"

    def _numa_bind_mode(self):
        return "numa_bind_on" if self.numa_bind else "numa_bind_off"

    def _lazy_init_mode(self):
        return "lazy_init_on" if self.lazy_init else "lazy_init_off"

    def _zero_fill_mode(self):
        return "zero_fill_on" if self.zero_fill else "zero_fill_off"

    def _write_through_mode(self):
        return "write_through_on" if self.write_through else "write_through_off"
