import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p05"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from dsa_proto.offload import ProtoEngine

for flag, exp_idx in ((False, (132, 132)), (True, (132, 256))):
    e = ProtoEngine(cpu_tokens=8, device="meta", index_keys_bf16=flag)
    L = e.cfg.n_layer
    for name, exp in (("k", (1024, 1024)), ("v", (1024, 1024)), ("index_k", exp_idx)):
        h = bptl(getattr(e.offload, name), e.offload.n_tokens, L)
        d = bptl(getattr(e.cache, name), e.cache.n_tokens, L)
        print("flag", flag, name, "host", h, "device", d)
        assert (h, d) == exp
print("OK p05")
