from _util import measure, use_tree, verify

info = use_tree("p10")

from quasar_serve.bootstrap import bootstrap  # noqa: E402
from quasar_serve.settings import load_settings  # noqa: E402

cfg = load_settings()
dev, host = bootstrap(device="meta", host_device="meta")
layers = cfg["model"]["num_layers"]
size = cfg["runtime"]["max_total_tokens"]
measured = measure(dev, size + 1, layers,                      # +1: dummy slot 0
                   host, int(size * cfg["runtime"]["host_ratio"]), layers,
                   ["k_buffer", "v_buffer"])
verify("p10", info, measured, dev, host)
