"""handoff: decode-side KV reservoir and the paged receive area for PD disaggregation."""
from .bootstrap import setup_transfer
from .settings import DisaggSettings

__all__ = ["DisaggSettings", "setup_transfer"]
