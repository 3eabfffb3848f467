"""First builds shared between evaluations (auditor/evaluation/first_builds.py): a point that the
device refused, or where a factory at the site built another host class, is not run again for
the next host class of the same site, and the audit reads exactly as when it is run again."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, every_report, write_tree

from auditor.evaluation.evaluate import PoolEvaluator
from auditor.evaluation.first_builds import FirstBuilds

POOLS = """
    import torch

    class Dev:
        def __init__(self, size, layer_num, page_size, kv_cache_dim):
            assert kv_cache_dim == 576, "this pool keeps 576-byte rows"
            self.size = size
            self.page_size = page_size
            self.width = kv_cache_dim
            self.kv_buffer = [
                torch.zeros((size + page_size, kv_cache_dim), dtype=torch.uint8)
                for _ in range(layer_num)
            ]

    class PagedHost:
        def __init__(self, device_pool, size):
            self.layer_num = len(device_pool.kv_buffer)
            self.size = size
            self.kv_buffer = torch.zeros((self.layer_num, size, 576), dtype=torch.uint8)

    class TokenHost(PagedHost):
        pass

    class HalfHost(PagedHost):
        def __init__(self, device_pool, size):
            self.layer_num = len(device_pool.kv_buffer)
            self.size = size
            self.kv_buffer = torch.zeros((self.layer_num, size, 288), dtype=torch.uint8)

    def host_class(pool):
        if pool.page_size == 1:
            return TokenHost
        if pool.page_size == 64:
            return HalfHost
        return PagedHost
"""

BUILD = """
    from pkg.pools import Dev, host_class

    def build(device_pool: Dev, size):
        cls = host_class(device_pool)
        return cls(device_pool, size)
"""


run, reports = audit_tree, every_report


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": POOLS, "pkg/build.py": BUILD})
    return tmp_path


def counting_builds(monkeypatch) -> list[int]:
    builds = [0]
    original = PoolEvaluator._build

    def counted(self, *args, **kwargs):
        builds[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(PoolEvaluator, "_build", counted)
    return builds


def test_the_audit_reads_the_same_with_fewer_builds(tree, monkeypatch):
    builds = counting_builds(monkeypatch)
    shared = run(tree)
    shared_builds = builds[0]
    monkeypatch.setattr(FirstBuilds, "find", lambda self, key, values: None)
    builds[0] = 0
    alone = run(tree)
    assert reports(shared) == reports(alone)
    assert shared_builds < builds[0], (shared_builds, builds[0])
    # the audit itself: the factory's choice at page 64 is compared and disagrees
    la001 = [(f.host.class_name, f.device.class_name) for f in shared.findings]
    assert la001 == [("HalfHost", "Dev")]
    never = [u.unknown.reason for u in shared.unresolved if "never built" in u.unknown.reason]
    assert any(r.startswith("PagedHost <- Dev") for r in never), never


def test_a_replayed_point_gives_the_reason_running_it_gives(tree, monkeypatch):
    """The reasons of the points that were not run name the class built there, per pair."""
    result = run(tree)
    for evaluation in result.evaluations:
        if evaluation.host is None:
            continue
        for point in evaluation.points:
            reason = point.infeasible.reason if point.infeasible is not None else ""
            if point.values.get("kv_cache_dim") == 656:
                assert reason == "assert kv_cache_dim == 576 fails", reason
            elif point.values.get("page_size") == 1 and evaluation.host.name != "TokenHost":
                assert (
                    reason == f"build() builds TokenHost at this point, not {evaluation.host.name}"
                )
