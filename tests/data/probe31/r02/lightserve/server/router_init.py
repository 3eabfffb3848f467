import torch

from lightserve.common.int8kv_mem_manager import INT8KVMemoryManager
from lightserve.common.mem_manager import MemoryManager
from lightserve.disagg.host_buffer import PDHostTransferBuffer
from lightserve.server.api_args import StartArgs

_DTYPE = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def select_mem_manager_class(mode):
    if "int8kv" in mode:
        return INT8KVMemoryManager
    return MemoryManager


def init_kv_memory(args=StartArgs, device="cuda"):
    """Create this rank's KV memory manager and the PD host transfer buffer."""
    mem_cls = select_mem_manager_class(args.mode)
    mem_manager = mem_cls(
        args.max_total_token_num,
        _DTYPE[args.data_type],
        args.head_num // args.tp,
        args.head_dim,
        args.layer_num,
        device=device,
    )
    transfer = PDHostTransferBuffer(
        mem_manager,
        max_transfer_tokens=args.pd_max_transfer_tokens,
        pin_memory=args.pd_pin_memory,
    )
    return mem_manager, transfer
