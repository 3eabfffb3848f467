"""A host pool that nothing pairs with a device pool the audit builds is a host all the same:
its layout was compared with nothing, so the run counts it (`1 host never paired`, JSON
`hosts_never_paired`), lists it as an unresolved item with the reason, and
`--fail-on-uncompared` fails on it. SGLang 0.5.23's `UnifiedPageEnvelopeHostPool` is one: its
device parameter is untyped, and the only classes defining what it calls on it are views of a
shared pool that take no token or layer count; the reason says so."""

from __future__ import annotations

import json

from helpers import write_tree

from auditor.cli import main

POOLS = """
    import torch


    class KVPool:
        def __init__(self, size: int, layer_num: int, head_dim: int = 128):
            self.layer_num = layer_num
            self.kv_buffer = [torch.empty((size, head_dim)) for _ in range(layer_num)]


    class SharedViewKVPool(KVPool):
        def __init__(self, *, shared, name: str, page_size: int = 1):
            self._shared = shared
            self.page_size = page_size
            self.kv_buffer = shared.views(name)

        def get_page_envelope_buffer(self):
            return self._shared.raw.view(-1, self._shared.page_bytes)


    class EnvelopeHost:
        def __init__(self, device_pool, ratio: float, page_size: int):
            buffer = device_pool.get_page_envelope_buffer()
            self.size_per_token = int(buffer.shape[1]) // page_size
            self.kv_buffer = torch.empty((int(device_pool.size * ratio), self.size_per_token))
"""

TYPED = """
    import torch
    from pkg.pools import KVPool


    class TypedHost:
        def __init__(self, device_pool: KVPool, host_tokens: int, head_dim: int = 128):
            self.kv_buffer = [
                torch.empty((host_tokens, head_dim)) for _ in range(device_pool.layer_num)
            ]
"""


def run(tmp_path, capsys, *options: str, typed: bool = False) -> tuple[int, str, str]:
    files = {"pkg/__init__.py": "", "pkg/pools.py": POOLS}
    if typed:
        files["pkg/typed.py"] = TYPED
    write_tree(tmp_path, files)
    code = main([str(tmp_path), "--no-cache", "--isolated", *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_host_never_paired_is_counted_and_listed(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, "--show-unresolved", "--show-pairs")
    assert code == 0  # nothing found, nothing claimed compared
    assert "1 host pools, 0 pairs · 1 host never paired ·" in err
    [item] = [line for line in out.splitlines() if "EnvelopeHost: host pool never paired" in line]
    assert "pools.py:" in item
    # who the untyped parameter can be, by what the host calls on it
    assert "(get_page_envelope_buffer()), SharedViewKVPool, take no token and layer" in item
    assert "  never paired: EnvelopeHost (" in out


def test_json_counts_it_and_fail_on_uncompared_fails(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, "--output-format", "json", "--show-pairs")
    document = json.loads(out)
    assert document["summary"]["hosts_never_paired"] == 1
    assert document["summary"]["unresolved"] == 1
    assert [p["class"] for p in document["pairs"] if p["code"] == "NOT-PAIRED"] == ["EnvelopeHost"]
    code, _, err = run(tmp_path, capsys, "--fail-on-uncompared")
    assert code == 1
    assert "1 host pool never paired (fail-on-uncompared)" in err


def test_a_paired_host_beside_it_is_compared_and_it_still_counts(tmp_path, capsys):
    code, _, err = run(tmp_path, capsys, typed=True)
    assert code == 0
    assert "1 of 1 pairs compared, 1 host never paired ·" in err


KIN = """
    import torch


    class KVPool:
        def __init__(self, size: int, layer_num: int, head_dim: int = 128):
            self.layer_num = layer_num
            self.kv_buffer = [torch.empty((size, head_dim)) for _ in range(layer_num)]


    class MirrorBase:
        def __init__(self, size: int):
            self.size = size


    class RowMirror(MirrorBase):
        def __init__(self, device_pool: KVPool, size: int):
            super().__init__(size)
            self.kv_buffer = [torch.empty((size, 128)) for _ in range(device_pool.layer_num)]


    class PageMirror(MirrorBase):
        def __init__(self, device_pool: KVPool, size: int):
            super().__init__(size)
            self.kv_buffer = [torch.empty((size, 128)) for _ in range(device_pool.layer_num)]


    class BufferMirror(MirrorBase):
        def __init__(self, device_buffers: list, item_bytes: int, size: int):
            super().__init__(size)
            self.kv_buffer = torch.empty((size, len(device_buffers), item_bytes), dtype=torch.uint8)
"""


def test_a_host_kin_taking_buffers_not_a_pool_is_said_never_paired(tmp_path, capsys):
    """A class deriving from the base two host pools share, taking a device's buffers and a
    size instead of a device pool (SGLang 0.5.23's `DeepSeekV4PagedHostPool`): nothing pairs
    it, and a green run must say so rather than leave it out (catalog._host_kin)."""
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": KIN})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--show-pairs", "--fail-on-uncompared"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "2 of 2 pairs compared, 1 host never paired ·" in err
    [line] = [line for line in out.splitlines() if "never paired: BufferMirror (" in line]
    assert "derives from MirrorBase, as the host pools PageMirror, RowMirror do" in line
    assert "(parameters: device_buffers, item_bytes, size)" in line


def test_a_host_a_declaration_pairs_is_no_longer_said_never_paired():
    """Declared pairs join the catalog after its strategies: a host the strategies (or its
    kinship with the host pools, as 0.5.23's DSA indexer host) left unpaired and that a device
    declares is paired, not listed as never paired as well."""
    from types import SimpleNamespace

    from auditor.pairing.pool_catalog import PoolCatalog

    declared, other = SimpleNamespace(name="IndexHost"), SimpleNamespace(name="BufferHost")
    catalog = PoolCatalog([], [], [], [], unpaired=[(declared, "kin"), (other, "kin")])
    catalog.add_declared([SimpleNamespace(host=declared, device=SimpleNamespace(name="Dev"))])
    assert catalog.unpaired == [(other, "kin")]
    assert catalog.hosts == [declared]
