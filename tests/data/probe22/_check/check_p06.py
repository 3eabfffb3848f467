import _util
_util.tree_path("p06")
from exl_lite.server import load_backend

model, cache, mirror = load_backend("Q4", batch_size=4, parked_sessions=16, device="meta",
                                    host_device="meta")
L = cache.num_hidden_layers
dtok = cache.batch_size * cache.max_seq_len
htok = mirror.num_sessions * mirror.max_seq_len
names = ["key_states", "value_states", "key_scales", "value_scales"]
d = {n: _util.bpt(getattr(cache, n), dtok, L) for n in names}
m = {n: _util.bpt(getattr(mirror, n), htok, mirror.num_layers) for n in names}
_util.verify("p06", d, m)
