"""Server start-up: allocate the KV bank and its host offload."""
import torch

from .bank import SeqToSeqKVBank
from .offload import SeqToSeqOffload


def allocate_seq2seq_caches(cfg, launch, device="cuda", offload_device="cpu"):
    dtype = torch.float16 if launch.dtype in ("fp16", "float16") else torch.bfloat16
    bank = SeqToSeqKVBank(cfg, launch.tp, launch.text_tokens, launch.max_requests, dtype,
                          device=device)
    offload = SeqToSeqOffload(bank, launch.offload_ratio, device=offload_device)
    return bank, offload
