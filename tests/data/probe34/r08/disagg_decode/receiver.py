"""Tracks inbound KV transfers from prefill instances."""
import enum


class TransferStatus(enum.Enum):
    WAITING = 0
    TRANSFERRING = 1
    DONE = 2
    FAILED = 3


class KVReceiver:
    """Per-request receiver: reserves staging slots, then commits to the pool."""

    def __init__(self, pool, staging, bootstrap_room, num_tokens):
        self.pool = pool
        self.staging = staging
        self.bootstrap_room = bootstrap_room
        self.num_tokens = num_tokens
        self.status = TransferStatus.WAITING
        self.start, self.end = staging.reserve(num_tokens)
        self.token_ids = None

    def remote_targets(self):
        """Addresses advertised to the prefill side for its RDMA writes."""
        self.status = TransferStatus.TRANSFERRING
        return self.staging.region_addresses(self.start, self.end)

    def on_transfer_done(self, ok=True):
        if not ok:
            self.status = TransferStatus.FAILED
            return None
        self.token_ids = self.pool.alloc(self.num_tokens)
        self.staging.commit_to_pool(self.pool, self.start, self.end, self.token_ids)
        self.status = TransferStatus.DONE
        return self.token_ids
