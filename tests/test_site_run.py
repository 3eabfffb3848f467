"""Construction sites evaluated through the function that holds them (auditor/site_run.py):
dicts built, merged and updated on the way, helpers returning (class, record, kwargs),
factories choosing the class, undecided tests on the way taken toward the call."""

from __future__ import annotations

from pathlib import Path

from helpers import write_tree

from auditor.pipeline import AuditResult, audit
from auditor.report.text import render_pairs
from auditor.settings import load_settings

POOLS = """
    import msgspec
    import torch

    class Info(msgspec.Struct, frozen=True, kw_only=True):
        buffers: tuple
        width: int
        wide: bool

    class Dev:
        width = 64

        def __init__(self, size, layer_num):
            self.size = size
            self.kv_buffer = [
                torch.zeros((size, self.width), dtype=torch.uint8) for _ in range(layer_num)
            ]

        def get_info(self):
            return Info(buffers=tuple(self.kv_buffer), width=self.width, wide=self.width > 64)

    class WideDev(Dev):
        width = 96

    class Host:
        def __init__(self, buffer_info: Info, *, capacity, width=None, ratio=1):
            self.layer_num = len(buffer_info.buffers)
            self.size = capacity * ratio
            self.kv_buffer = torch.zeros(
                (self.layer_num, self.size, width or 64), dtype=torch.uint8
            )

    class WideHost(Host):
        pass

    def host_class(info):
        if info.wide:
            return WideHost
        return Host
"""


def run(root: Path, build: str) -> AuditResult:
    write_tree(root, {"pkg/__init__.py": "", "pkg/pools.py": POOLS, "pkg/build.py": build})
    settings = load_settings(None)
    settings.respect_gitignore = False
    return audit([root], settings)


def la001(result: AuditResult) -> list[tuple[str, str, int, int]]:
    return sorted(
        (f.host.class_name, f.device.class_name, f.host.bytes_per_token, f.device.bytes_per_token)
        for f in result.findings
        if f.code == "LA001"
    )


def compared(result: AuditResult) -> set[tuple[str, str]]:
    return {
        (e.host.name, e.device.name)
        for e in result.evaluations
        if e.host is not None and any(p.host for p in e.feasible)
    }


def test_dicts_merged_and_updated_reach_the_call(tmp_path):
    """`dict(...)`, item assignment, `update(other)`, `{**a, **b}` and several `**` at one
    call: the width the code computes reaches the host; dropping it is reported."""
    fixed = """
        from pkg.pools import Host

        def build(kv_pool, ratio):
            extra = dict(capacity=kv_pool.size)
            kwargs = {}
            kwargs["width"] = kv_pool.width
            kwargs.update(extra)
            common = {"ratio": 1}
            return Host(kv_pool.get_info(), **{**common, **kwargs})
    """
    result = run(tmp_path / "fixed", fixed)
    assert la001(result) == []
    assert compared(result) == {("Host", "Dev"), ("Host", "WideDev")}
    buggy = fixed.replace('kwargs["width"] = kv_pool.width', 'kwargs["other"] = 1').replace(
        "(kv_pool.get_info(), **{**common, **kwargs})",
        "(kv_pool.get_info(), **common, capacity=kv_pool.size)",
    )
    assert la001(run(tmp_path / "buggy", buggy)) == [("Host", "WideDev", 64, 96)]


def test_a_helper_returning_class_record_and_kwargs_and_a_factory(tmp_path):
    """`cls, info, kw = helper(pool)` where the helper calls a factory: both classes the
    factory may return are paired; at each point only the one it returns is compared."""
    result = run(
        tmp_path,
        """
        from pkg.pools import host_class

        def _inputs(pool):
            info = pool.get_info()
            return host_class(info), info, dict(capacity=pool.size)

        def build(pool):
            cls, info, kw = _inputs(pool)
            return cls(info, width=pool.width, **kw)
        """,
    )
    pairs = {(p.host.name, p.device.name) for p in result.catalog.pairs}
    assert pairs == {("Host", "Dev"), ("WideHost", "WideDev")}
    assert compared(result) == pairs
    # the other combinations are built at no point: listed, not paired
    never = [u.unknown.reason for u in result.unresolved if "never built" in u.unknown.reason]
    assert len(never) == 2, never
    assert any(r.startswith("WideHost <- Dev at") and "builds Host" in r for r in never), never
    assert la001(result) == []
    evidence = next(p.evidence.text() for p in result.catalog.pairs if p.host.name == "WideHost")
    assert "class returned by host_class()" in evidence
    assert "arguments as build() computes them" in evidence


def test_an_undecided_test_on_the_way_is_taken_toward_the_call_and_said(tmp_path):
    """`if caller_flag:` (a parameter the callers pass) holding the call: the branch is taken,
    the comparison is made, and --show-pairs says what was assumed."""
    result = run(
        tmp_path,
        """
        from pkg.pools import Host

        def build(pool, caller_flag):
            width = 64
            if caller_flag:
                return Host(pool.get_info(), capacity=pool.size, width=width)
            return None
        """,
    )
    assert la001(result) == [("Host", "WideDev", 64, 96)]
    [finding] = result.findings
    assert "caller_flag: taken as true" in finding.message

    class Out:
        text = ""

        def write(self, chunk: str) -> None:
            self.text += chunk

    out = Out()
    render_pairs(result, out)
    assert "    assumed: caller_flag: taken as true" in out.text


def test_a_pointer_table_gives_its_device(tmp_path):
    """`torch.tensor([ptr, ...], device=d)`: a table, not a buffer; its `.device.type` picks
    the allocator as at run time."""
    result = run(
        tmp_path,
        """
        import torch
        from pkg.pools import Host, Info

        ALLOC = {"cpu": torch.zeros}

        class TableHost(Host):
            def __init__(self, buffer_info: Info, *, capacity):
                table = torch.tensor(
                    [b.data_ptr() for b in buffer_info.buffers], dtype=torch.uint64, device="cpu"
                )
                self.ptrs = table
                self.layer_num = len(buffer_info.buffers)
                self.size = capacity
                first = next(b for b in buffer_info.buffers if b is not None)
                self.kv_buffer = ALLOC[table.device.type](
                    (self.layer_num, capacity, 64), dtype=first.dtype
                )

        def build(pool):
            return TableHost(pool.get_info(), capacity=pool.size)
        """,
    )
    table = [e for e in result.evaluations if e.host and e.host.name == "TableHost"]
    assert table and all(set(p.host) == {"kv_buffer"} for e in table for p in e.feasible)
    assert la001(result) == [("TableHost", "WideDev", 64, 96)]


def test_the_first_of_the_callers_pools_with_the_rest_taken_empty(tmp_path):
    """`first, *rest = pools` (the pools a parameter the callers pass): the device is `first`,
    `rest` is taken empty (the case of one pool), the pair is compared, and the assumption is
    said. Without the rule, `rest` is unknown and the host's figures with it."""
    build = """
        from pkg.pools import Host

        def build(pools, ratio):
            first, *rest = pools
            return Host(first.get_info(), capacity=first.size, width=WIDTH, ratio=len(rest) + 1)
    """
    result = run(tmp_path / "buggy", build.replace("WIDTH", "64"))
    assert la001(result) == [("Host", "WideDev", 64, 96)]
    assert compared(result) == {("Host", "Dev"), ("Host", "WideDev")}
    [finding] = result.findings
    assert "rest taken empty (first the only pool of pools)" in finding.message
    fixed = run(tmp_path / "fixed", build.replace("WIDTH", "first.width"))
    assert la001(fixed) == [] and compared(fixed) == {("Host", "Dev"), ("Host", "WideDev")}


EXTRAS = """
    import torch

    from pkg.pools import Dev

    class ExtraHost:
        def __init__(self, device_pool: Dev, extras=DEFAULT):
            pools = (device_pool, *extras) if extras is not None else (device_pool,)
            self.size = device_pool.size
            self.kv_buffer = [
                torch.zeros((self.size, WIDTH), dtype=torch.uint8)
                for pool in pools
                for _ in pool.kv_buffer
            ]

    def build(kv: Dev, params):
        return ExtraHost(kv, extras=params.drafts)
"""


def test_extras_the_callers_pass_are_taken_as_an_empty_default_and_said(tmp_path):
    """0.5.23's QSA indexer host: `mtp_draft_device_pools=qsa_draft_pools`, read off `params`
    (the callers'): the host defaults it to `()`, the case without draft pools. Taken so, the
    pair is compared and says what it assumed; a host whose default is not an empty sequence
    keeps the argument unknown."""
    build = EXTRAS.replace("DEFAULT", "()")
    result = run(tmp_path / "buggy", build.replace("WIDTH", "32"))
    assert ("ExtraHost", "Dev") in compared(result)
    [finding] = [f for f in result.findings if f.device.class_name == "Dev"]
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (32, 64)
    assert "extras: the callers' value not known, taken as its default (empty)" in finding.message
    fixed = run(tmp_path / "fixed", build.replace("WIDTH", "64"))
    assert ("ExtraHost", "Dev") in compared(fixed)
    assert not [f for f in fixed.findings if f.device.class_name == "Dev"]
    unknown = run(tmp_path / "none", EXTRAS.replace("DEFAULT", "None").replace("WIDTH", "32"))
    [pair] = [p for p in unknown.coverage.pairs if p.title == "ExtraHost <- Dev"]
    assert (pair.compared, pair.reason) == (False, "host figures unresolved")
    assert not [f for f in unknown.findings if f.host.class_name == "ExtraHost"]


def _site_in(source: str, function: str):
    """A stand-in site: the first call of `Host` in the module, said to be in `function`."""
    from types import SimpleNamespace

    import libcst as cst
    import libcst.matchers as m

    tree = cst.parse_module(source)
    call = m.findall(tree, m.Call(func=m.Name("Host")))[0]
    functions = {
        node.name.value: SimpleNamespace(node=node) for node in m.findall(tree, m.FunctionDef())
    }
    module = SimpleNamespace(name="m", functions=functions, parsed=SimpleNamespace(tree=tree))
    return SimpleNamespace(
        module=module,
        function=f"m.{function}",
        call=call,
        substituted={},
        device_call=None,
        via_call=None,
    )


def test_the_function_holding_a_site_is_found_once_per_site(monkeypatch):
    from auditor.evaluation import site_run

    visits: list[int] = []
    path_to = site_run._path_to

    def counted(site, root):
        visits.append(1)
        return path_to(site, root)

    monkeypatch.setattr(site_run, "_path_to", counted)
    site = _site_in("class A:\n    pass\ndef build(pool):\n    return Host(pool)\n", "build")
    found = site_run.enclosing_function(site)
    assert found is site.module.functions["build"]
    assert site_run.enclosing_function(site) is found  # asked at every build of every point
    assert len(visits) == 1
    # a function of that name that does not hold the call, or not at module level: not run
    other = _site_in(
        "def build(pool):\n    pass\ndef make(pool):\n    return Host(pool)\n", "build"
    )
    assert site_run.enclosing_function(other) is None
    nested = _site_in("if X:\n    def build(pool):\n        return Host(pool)\n", "build")
    assert site_run.enclosing_function(nested) is None
