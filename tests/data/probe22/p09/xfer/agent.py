from .device_pool import PageFirstKVPool
from .spec import merge_spec
from .staging import HostStagingRegion


class KVTransferAgent:

    def __init__(self, spec_overrides: dict = None):
        self.spec = merge_spec(spec_overrides)
        self.pool = None
        self.staging = None
        self.peers = {}

    def setup(self):
        self.pool = PageFirstKVPool(self.spec)
        meta = self.pool.agent_metadata()
        self.staging = HostStagingRegion.from_agent_metadata(
            meta, self.spec["kv"]["staging_pages"],
            device=self.spec["backend"]["staging_device"])
        return self.pool, self.staging

    def add_remote_agent(self, name: str, meta: dict):
        self.peers[name] = meta
