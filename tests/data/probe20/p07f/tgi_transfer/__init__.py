"""Sender/receiver KV buffers for shipping prefilled KV between TGI shards."""
from .conf import TransferConfig
from .link import open_kv_link
