"""Host layouts declared in data (auditor/pairing/declared.py) and the interpreter idioms they need:
msgspec.Struct records, buffers behind a property over a helper object with a back-reference."""

from __future__ import annotations

from pathlib import Path

import msgspec
import torch
from helpers import (
    assert_unknown,
    build,
    build_index,
    find_class,
    module_value,
    settings,
    write_tree,
)

from auditor.evaluation.evaluate import PoolEvaluator
from auditor.interpret.records import field_text
from auditor.interpret.values import Instance, Tensor
from auditor.pairing.declared import DeclaredHostEvaluator, is_declared
from auditor.pipeline import audit
from auditor.settings import load_settings

RECORDS = {
    "records.py": """
        import msgspec
        import torch


        class StorageInfo(msgspec.Struct, frozen=True, kw_only=True):
            bytes_per_token_per_layer: int
            dtype: torch.dtype
            note: str = "none"

            def page_bytes(self, page_size: int) -> int:
                return self.bytes_per_token_per_layer * page_size


        def make(row):
            return StorageInfo(bytes_per_token_per_layer=row * 2 + 4, dtype=torch.uint8)
    """
}


def test_a_msgspec_struct_is_built_from_its_fields_and_keeps_its_methods(tmp_path: Path) -> None:
    index = build_index(tmp_path, {**RECORDS, "use.py": USE})
    got = module_value(index, "use", "RESULT")

    class StorageInfo(msgspec.Struct, frozen=True, kw_only=True):  # the real thing, as oracle
        bytes_per_token_per_layer: int
        dtype: torch.dtype
        note: str = "none"

        def page_bytes(self, page_size: int) -> int:
            return self.bytes_per_token_per_layer * page_size

    real = StorageInfo(bytes_per_token_per_layer=64 * 2 + 4, dtype=torch.uint8)
    assert got == (real.bytes_per_token_per_layer, real.dtype, real.note, real.page_bytes(4))


USE = """
from records import make

info = make(64)
RESULT = (info.bytes_per_token_per_layer, info.dtype, info.note, info.page_bytes(4))
"""


def test_where_a_record_field_was_written_is_remembered(tmp_path: Path) -> None:
    index = build_index(tmp_path, {**RECORDS, "use.py": USE})
    info = module_value(index, "use", "info")
    assert isinstance(info, Instance)
    assert field_text(info, "bytes_per_token_per_layer") == "row * 2 + 4"
    site = info.set_sites["bytes_per_token_per_layer"]
    assert site.path.endswith("records.py") and site.line == 15  # `return StorageInfo(...)`


BACK_REFERENCE = {
    "pool.py": """
        import torch


        class IndexCache:
            def __init__(self, pool, rows):
                self.pool = pool
                self.buffer = [
                    torch.zeros((rows + 1, pool.row), dtype=pool.index_dtype)
                    for _ in range(pool.layer_num)
                ]


        class Pool:
            index_dtype = torch.uint8

            def __init__(self, size: int, layer_num: int, row: int):
                self.size = size
                self.layer_num = layer_num
                self.row = row
                self.k_buffer = [torch.zeros((size, 8), dtype=torch.bfloat16) for _ in range(layer_num)]
                self.index_cache = IndexCache(self, size)

            @property
            def index_buffer(self):
                return self.index_cache.buffer

            @property
            def key_buffer(self):  # an alias of an attribute: not a buffer of its own
                return self.k_buffer

            @property
            def broken_buffer(self):
                assert self.size < 0
                return self.k_buffer
    """
}


def test_a_property_over_a_helper_with_a_back_reference_is_a_buffer(tmp_path: Path) -> None:
    index = build_index(tmp_path, BACK_REFERENCE)
    built = build(index, "Pool", kwargs={"size": 10, "layer_num": 2, "row": 132})
    helper = built["index_cache"]
    assert helper.attrs["pool"] is built.instance  # the back-reference is the pool itself
    tensors = built.attr("index_buffer")
    real = [torch.zeros((11, 132), dtype=torch.uint8, device="meta") for _ in range(2)]
    assert all(isinstance(t, Tensor) for t in tensors)
    assert sum(t.nbytes for t in tensors) == sum(t.nbytes for t in real)
    # measured per token per layer: the helper's row; the alias and the raising property are
    # not buffers of their own
    evaluation = PoolEvaluator(index, settings(matrix={"row": [132]})).evaluate(
        find_class(index, "Pool")
    )
    [point] = evaluation.points
    assert set(point.device) == {"k_buffer", "index_buffer"}
    assert point.device["index_buffer"].bytes_per_token_per_layer == 132
    assert point.device["k_buffer"].bytes_per_token_per_layer == 8 * 2


def test_declared_host_layout_pairs_and_reports_what_it_cannot_follow(tmp_path: Path) -> None:
    """A declaration for a sub-pool, a builder without `build`, and one whose host copies
    nothing: each is unresolved with its reason, never a pair or a finding."""
    files = {
        "decl.py": """
            import msgspec
            import torch


            class Info(msgspec.Struct, frozen=True, kw_only=True):
                bytes_per_token_per_layer: int
                dtype: torch.dtype


            class Decl(msgspec.Struct, frozen=True, kw_only=True):
                device_pool: object
                storage_info: object
                host_pool_builder: object


            class NoBuild:
                pass


            class CopiesNothing:
                def build(self, *, decl, anchor_host):
                    return EmptyHost(decl)


            class EmptyHost:
                def __init__(self, decl):
                    self.decl = decl
        """,
        "pool.py": """
            import torch

            from decl import CopiesNothing, Decl, Info, NoBuild


            class Sub:
                pass


            class Pool:
                def __init__(self, size: int, layer_num: int):
                    self.size = size
                    self.layer_num = layer_num
                    self.k_buffer = [torch.zeros((size, 4), dtype=torch.uint8) for _ in range(layer_num)]

                def host_pool_decls(self):
                    info = Info(bytes_per_token_per_layer=4, dtype=torch.uint8)
                    return (
                        Decl(device_pool=Sub(), storage_info=info, host_pool_builder=NoBuild()),
                        Decl(device_pool=self, storage_info=info, host_pool_builder=NoBuild()),
                        Decl(device_pool=self, storage_info=info, host_pool_builder=CopiesNothing()),
                    )
        """,
    }
    index = build_index(tmp_path, files)
    evaluator = DeclaredHostEvaluator(index, settings())
    pairs, unknowns = evaluator.declared_pairs([find_class(index, "Pool")])
    assert pairs == []
    reasons = sorted(u.reason for u in unknowns)
    assert len(reasons) == 3, reasons
    assert any("sub-pool" in r for r in reasons)
    assert any("NoBuild has no build method" in r for r in reasons)
    assert any("EmptyHost copies no buffer of Pool" in r for r in reasons)
    for unknown in unknowns:
        assert_unknown(unknown)
        assert unknown.location is not None


def test_the_dsa_fixture_pairs_by_declaration(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent / "fixtures" / "dsa_declared_buggy"
    result = audit([root], load_settings(None))
    [pair] = result.catalog.pairs
    assert (pair.host.name, pair.device.name) == ("DSAIndexerPoolHost", "DSATokenToKVPool")
    assert pair.evidence.text().startswith("declared by DSATokenToKVPool.host_pool_decls() at ")
    [evaluation] = [e for e in result.evaluations if e.host is not None]
    assert is_declared(evaluation)
    hosts = {
        p.host["index_k_with_scale_buffer"].bytes_per_token_per_layer for p in evaluation.points
    }
    assert hosts == {132}  # (128 + 128 // 128 * 4) x uint8, read through DSATokenToKVPool
    assert [f.code for f in result.findings] == ["LA001"]
    # a declared host is audited: never also listed as a class left out
    assert [cls.name for _, cls, _ in result.catalog.left_out()] == []


def test_any_and_all_as_host_pool_decls_use_them(tmp_path: Path) -> None:
    """`all(self.skip_topk_layers)` decides whether DSA declares its indexer host pool."""
    from helpers import evaluate

    cases = ["all([True, False])", "any([0, 1])", "all([])", "any(())", "all((1, 2))"]
    for i, expression in enumerate(cases):
        assert evaluate(tmp_path / str(i), expression) == eval(expression)  # noqa: S307
    # an unknown item decides nothing, unless a known one already decides
    prelude = "import elsewhere\nx = elsewhere.probe()\n"
    assert evaluate(tmp_path / "a", "all([False, x])", prelude) is False
    assert evaluate(tmp_path / "b", "any([True, x])", prelude) is True
    assert_unknown(evaluate(tmp_path / "c", "all([True, x])", prelude), "elsewhere.probe")


def test_a_device_buffer_indexing_more_slots_than_tokens_is_unresolved(tmp_path: Path) -> None:
    """HiSparse sizes index-K by host slots (`size * host_to_device_ratio`): per pool token it
    holds twice the declared bytes, per slot the same. Not a finding: unresolved, with why."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(
        Path(__file__).resolve().parent.parent / "fixtures" / "dsa_declared_fixed", root
    )
    pool = root / "sglang/srt/mem_cache/memory_pool.py"
    source = pool.read_text()
    old = "self.index_buf_size = size if index_buf_size is None else index_buf_size"
    assert source.count(old) == 1
    pool.write_text(source.replace(old, "self.index_buf_size = size * 2"))
    result = audit([root], load_settings(None))
    assert [f.code for f in result.findings] == []
    reasons = {u.unknown.reason for u in result.unresolved}
    assert any("device buffer holds 2 x the declared 132 B per pool token" in r for r in reasons)


def test_a_device_buffer_whose_dtype_widened_is_reported_not_taken_for_slots(
    tmp_path: Path,
) -> None:
    """The incident's class: the device's fp8 rows (132 B with scales) turn bf16 while the
    declared layout stays uint8. Twice the declared bytes per token, but because each element
    is twice as wide, not because more slots are indexed: LA001, 132 against 264."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(
        Path(__file__).resolve().parent.parent / "fixtures" / "dsa_declared_fixed", root
    )
    cache = root / "sglang/srt/mem_cache/index_key_cache.py"
    source = cache.read_text()
    old = "            dtype = pool.index_k_with_scale_buffer_dtype\n"
    assert source.count(old) == 1
    cache.write_text(source.replace(old, "            dtype = torch.bfloat16\n"))
    result = audit([root], load_settings(None))
    figures = {
        (f.host.bytes_per_token, f.device.bytes_per_token)
        for f in result.findings
        if f.code == "LA001"
    }
    assert (132, 264) in figures, [f.message for f in result.findings]
    reasons = {u.unknown.reason for u in result.unresolved}
    assert not any("may index other slots" in r for r in reasons), reasons


def test_one_declared_size_for_several_buffers_is_unresolved_not_compared(tmp_path: Path) -> None:
    files = {
        "pool.py": """
            import msgspec
            import torch


            class Info(msgspec.Struct, frozen=True, kw_only=True):
                bytes_per_token_per_layer: int
                dtype: torch.dtype


            class Decl(msgspec.Struct, frozen=True, kw_only=True):
                device_pool: object
                storage_info: object
                host_pool_builder: object


            class TwoBufferHost:
                def __init__(self, decl):
                    self.device_pool = decl.device_pool

                def copy(self, i):
                    return self.device_pool.k_buffer[i], self.device_pool.v_buffer[i]


            class Builder:
                def build(self, *, decl, anchor_host):
                    return TwoBufferHost(decl)


            class Pool:
                def __init__(self, size: int, layer_num: int):
                    self.size = size
                    self.layer_num = layer_num
                    self.k_buffer = [torch.zeros((size, 4), dtype=torch.uint8) for _ in range(layer_num)]
                    self.v_buffer = [torch.zeros((size, 4), dtype=torch.uint8) for _ in range(layer_num)]

                def host_pool_decls(self):
                    info = Info(bytes_per_token_per_layer=4, dtype=torch.uint8)
                    return (Decl(device_pool=self, storage_info=info, host_pool_builder=Builder()),)
        """
    }
    write_tree(tmp_path, files)
    result = audit([tmp_path], settings())
    assert [(p.host.name, p.device.name) for p in result.catalog.pairs] == [
        ("TwoBufferHost", "Pool")
    ]
    assert result.findings == []  # 4 declared vs 4 + 4 held: not compared, not a finding
    reasons = {u.unknown.reason for u in result.unresolved}
    assert any("copies several device buffers (k_buffer, v_buffer)" in r for r in reasons)
