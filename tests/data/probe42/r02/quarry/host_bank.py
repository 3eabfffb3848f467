import torch


def _host_storage_dtype(name, model_dtype):
    # CPU has no fp8 kernels; fp8 caches are parked as raw bytes on the host
    if name in ("fp8", "fp8_e4m3"):
        return torch.uint8
    elif name == "int8":
        return torch.int8
    return model_dtype


class _HostBankBase:
    pin = False

    def __init__(self, args, size):
        model_dtype = getattr(args, "dtype", torch.float16)
        self.dtype = _host_storage_dtype(args.kv_cache_dtype, model_dtype)
        self.size = size
        self.layer_num = args.num_layers
        shape = (self.layer_num, size, args.num_kv_heads, args.head_dim)
        device = getattr(args, "host_device", "cpu")
        self.k_buffer = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=self.pin)
        self.v_buffer = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=self.pin)


class PinnedHostBank(_HostBankBase):
    pin = True


class PageableHostBank(_HostBankBase):
    pin = False


HOST_BANKS = {
    "pinned": PinnedHostBank,
    "pageable": PageableHostBank,
}
