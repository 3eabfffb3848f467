from .decode_pool import DecodeLatentPool
from .prefill_pool import PrefillLatentPool
from .settings import MLACacheSettings


def build_pair(settings=None, decode_device="cuda", prefill_device="cuda"):
    """Used by the single-node test harness that runs both roles in one process."""
    s = settings or MLACacheSettings()
    decode = DecodeLatentPool(s, device=decode_device)
    prefill = PrefillLatentPool(s, device=prefill_device)
    return decode, prefill
