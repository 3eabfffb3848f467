from .args import ServeArgs
from .kv_pool import RankKVSlab
from .transfer import PrefillSendBuffer


def launch_prefill_worker(args=None):
    args = args or ServeArgs()
    if args.num_key_value_heads % args.tp_size:
        raise ValueError("kv heads must divide evenly across tp ranks")
    slab = RankKVSlab(args)
    sender = PrefillSendBuffer(args)
    return slab, sender
