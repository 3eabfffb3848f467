from common import add_tree, per_token, verify

add_tree("r02")
from quarry.config import EngineArgs  # noqa: E402
from quarry.factory import create_kv_banks  # noqa: E402

args = EngineArgs(device="meta", host_device="meta")
dev, host = create_kv_banks(args)
dslots = dev.size + 1
hslots = host.size
assert dev.k_buffer[0].shape[0] == dslots and host.k_buffer.shape[1] == hslots
measured = {a: (per_token(getattr(host, a), hslots), per_token(getattr(dev, a), dslots))
            for a in ("k_buffer", "v_buffer")}
verify("r02", dev, host, create_kv_banks, measured)

# supported alternative: fp8_e4m3 agrees (1 byte both sides)
dev2, host2 = create_kv_banks(EngineArgs(device="meta", host_device="meta", kv_cache_dtype="fp8_e4m3"))
assert per_token(host2.k_buffer, host2.size) == per_token(dev2.k_buffer, dev2.size + 1)
print("OK")
