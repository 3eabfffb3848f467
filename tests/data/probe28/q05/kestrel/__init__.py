from .config import QuantKVConfig
from .runtime import KVRuntime
