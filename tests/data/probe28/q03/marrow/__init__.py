from .memory_pool import TokenKVBuffers
from .transfer import TransferRegistry
from .setup import KVTransferSetup
