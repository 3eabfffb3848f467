from .connector import KVConnector, build_kv_connector

__all__ = ["KVConnector", "build_kv_connector"]
