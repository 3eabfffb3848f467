class TransferEngine:
    """Stand-in for mooncake.engine.TransferEngine: keeps a table of the
    regions registered for RDMA so batch_transfer_sync() can validate."""

    def __init__(self, hostname: str, protocol: str, device_name: str = ""):
        self.hostname = hostname
        self.protocol = protocol
        self.device_name = device_name
        self.registered = {}

    def register_memory(self, name: str, tensor) -> int:
        self.registered[name] = tensor.nbytes
        return 0

    def batch_transfer_sync(self, target, src_name, offsets, lengths):
        size = self.registered[src_name]
        for off, n in zip(offsets, lengths):
            if off + n > size:
                raise ValueError("transfer out of registered range")
        return 0
