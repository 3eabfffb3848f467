from dataclasses import dataclass

from .decode_pool import DecodeKVBlocks
from .model_config import DeployConfig, TransformerConfig
from .prefill_pool import PrefillStagingPool


@dataclass
class KVConnector:
    decode_pool: DecodeKVBlocks
    prefill_pool: PrefillStagingPool

    def transfer_plan(self, prefill_blocks, decode_blocks):
        return [
            (self.prefill_pool.block(l, s), self.decode_pool.block(l, d))
            for l in self.decode_pool.stage_layers
            for s, d in zip(prefill_blocks, decode_blocks)
        ]


def build_kv_connector(device: str = "cuda", pp_rank: int = 0) -> KVConnector:
    cfg = TransformerConfig()
    deploy = DeployConfig(pp_rank=pp_rank)
    decode = DecodeKVBlocks(cfg, deploy, deploy.decode_blocks, device=device)
    prefill = PrefillStagingPool(
        cfg, deploy, deploy.prefill_blocks, device="meta" if device == "meta" else "cpu"
    )
    return KVConnector(decode_pool=decode, prefill_pool=prefill)
