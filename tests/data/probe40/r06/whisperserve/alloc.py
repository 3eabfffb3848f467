import torch


def alloc_buffer(shape, dtype, device, pin=False):
    """Zero-initialised buffer; pinning only applies to host allocations."""
    pin = pin and str(device) == "cpu" and torch.cuda.is_available()
    return torch.zeros(shape, dtype=dtype, device=device, pin_memory=pin)
