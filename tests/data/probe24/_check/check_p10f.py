"""p10f (the fixed form of p10, written for the auditor's tests): the host's K and V hold as
many bytes per token per layer as the device's, built through the tree's own bootstrap on the
meta device."""
import os
import sys

from _util import measure

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p10f"))

from quasar_serve.bootstrap import bootstrap  # noqa: E402
from quasar_serve.settings import load_settings  # noqa: E402

cfg = load_settings()
dev, host = bootstrap(device="meta", host_device="meta")
assert "p10f" in sys.modules[type(host).__module__].__file__
layers = cfg["model"]["num_layers"]
size = cfg["runtime"]["max_total_tokens"]
measured = measure(dev, size + 1, layers,  # +1: dummy slot 0
                   host, int(size * cfg["runtime"]["host_ratio"]), layers,
                   ["k_buffer", "v_buffer"])
assert measured == {"k_buffer": (3072, 3072), "v_buffer": (2048, 2048)}, measured
print("OK")
