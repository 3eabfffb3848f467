from sandpiper.cli import parse
from sandpiper.kv.device_pool import InterleavedKVPool
from sandpiper.kv.host_mirror import HostKVMirror
from sandpiper.kv.spec import AttentionSpec


def setup_kv(argv=None, device="cuda", host_device="cpu"):
    ns = parse(argv)
    spec = AttentionSpec(ns.model, ns.kv_dtype, ns.tp)
    pool = InterleavedKVPool(spec, ns.max_tokens, ns.page, device=device)
    mirror = HostKVMirror.from_device_pool(pool, ns.host_gib, host_device=host_device)
    return pool, mirror
