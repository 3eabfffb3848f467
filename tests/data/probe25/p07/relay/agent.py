import os
from typing import Optional

from relay.layout import KVLayout
from relay.local_arena import RegisteredKVArena
from relay.remote_region import RemotePeerRegion

QWEN3_8B = {
    "num_hidden_layers": 36,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "head_dim": 128,
}


class TransferAgent:
    def __init__(self, local: RegisteredKVArena, peer: RemotePeerRegion):
        self.local = local
        self.peer = peer

    @classmethod
    def bootstrap(cls, model: Optional[dict] = None, tp_size: int = 2, device="cuda",
                  peer_device="cuda"):
        layout = KVLayout.from_model(model or QWEN3_8B, tp_size=tp_size)
        local = RegisteredKVArena(layout, device=device)
        handshake = local.register_descriptor()
        peer_pages = int(os.environ.get("RELAY_PEER_PAGES", 2 * layout.num_pages))
        peer = RemotePeerRegion(handshake["layout"], peer_pages, device=peer_device)
        return cls(local, peer)
