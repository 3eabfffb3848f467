from .conf import TransferConfig
from .receiver import KVRecvBuffer
from .sender import KVSendCache


def open_kv_link(cfg=None, send_device="cuda:0", recv_device="cuda:1"):
    cfg = cfg or TransferConfig()
    sender = KVSendCache(cfg, device=send_device)
    receiver = KVRecvBuffer(cfg, device=recv_device)
    return sender, receiver


def push(sender, receiver, token_idx, slots):
    for layer in range(len(sender.kv_rows)):
        receiver.ingest(layer, slots, sender.export(layer, token_idx))
