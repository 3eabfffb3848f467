from .conf import load_conf
from .endpoints import DecodeKVReceiver, PrefillKVSender


def build_endpoints(ini: str = None, prefill_device="cuda", decode_device="cuda"):
    cp = load_conf(ini)
    sender = PrefillKVSender(cp, device=prefill_device)
    receiver = DecodeKVReceiver(cp, device=decode_device)
    if not receiver.accept(sender.num_layers):
        raise RuntimeError("layer count mismatch between prefill and decode")
    return sender, receiver
