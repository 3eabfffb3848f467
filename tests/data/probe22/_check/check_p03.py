import os
import _util
os.environ["ATTENTION"] = "paged"
_util.tree_path("p03")
from tgi_server.server import make_parser, serve
from tgi_server.utils.import_utils import BLOCK_SIZE

args = make_parser().parse_args(["--device", "meta", "--host-device", "meta",
                                 "--max-total-tokens", "65536"])
model = serve(args)
L = model.num_layers
dtok = model.kv_cache[0].num_blocks * BLOCK_SIZE
htok = model.host_cache[0].num_blocks * BLOCK_SIZE
assert len(model.host_cache) == L and htok > 0
d = {"key": _util.bpt([c.key for c in model.kv_cache], dtok, L),
     "value": _util.bpt([c.value for c in model.kv_cache], dtok, L)}
m = {"key": _util.bpt([c.key for c in model.host_cache], htok, L),
     "value": _util.bpt([c.value for c in model.host_cache], htok, L)}
_util.verify("p03", d, m)
