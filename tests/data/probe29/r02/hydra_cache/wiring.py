"""Worker start-up: allocate device blocks and the wire receive buffer."""
from .blocks import DeviceKVBlocks
from .recv import RecvBuffer
from .spec import CacheSpec


def make_pair(spec=None, *, num_pages=4, device="cuda", recv_device="cuda"):
    spec = spec or CacheSpec()
    blocks = DeviceKVBlocks(spec, device=device)
    recv = RecvBuffer(spec, num_pages, device=recv_device)
    return blocks, recv
