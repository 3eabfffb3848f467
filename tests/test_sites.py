"""Pairing by construction site (auditor/pairing/sites.py, auditor/pairing/catalog.py): which device pools the
code can hand each host pool class, where, and with which arguments."""

from __future__ import annotations

from pathlib import Path

from helpers import write_tree

from auditor.evaluation.evaluate import site_value
from auditor.pipeline import AuditResult, audit
from auditor.settings import load_settings

# Dev holds 64 B/token/layer, DevWide 128, DevNarrow 32. Host holds 64 unless `width` is given;
# HostWide holds 128. So Host agrees with Dev only, unless a site passes width=128 for DevWide.
POOLS = """
    import torch

    class Dev:
        width = 64

        def __init__(self, size, layer_num):
            self.size = size
            self.layer_num = layer_num
            self.kv_buffer = [
                torch.zeros((size, self.width), dtype=torch.uint8) for _ in range(layer_num)
            ]

    class DevWide(Dev):
        width = 128

    class DevNarrow(Dev):
        width = 32

    class Host:
        def __init__(self, device_pool: Dev, width=None):
            self.size = device_pool.size
            self.layer_num = device_pool.layer_num
            self.kv_buffer = torch.zeros((self.layer_num, self.size, width or 64), dtype=torch.uint8)

    class HostWide(Host):
        def __init__(self, device_pool: Dev):
            super().__init__(device_pool, 128)
"""


def site_findings(result: AuditResult) -> list:
    return [f for f in result.findings if f.pairing.startswith("call site")]


def run(root: Path, files: dict[str, str]) -> AuditResult:
    write_tree(root, {"pkg/__init__.py": "", "pkg/pools.py": POOLS, **files})
    settings = load_settings(None)
    settings.respect_gitignore = False
    return audit([root], settings)


def pairs(result: AuditResult, annotation: bool = False) -> set[tuple[str, str, str]]:
    """(host, device, where) with where = `file:line` of the site, or `annotation` (those only
    when asked: a host class built nowhere is paired by annotation)."""
    found = set()
    for pair in result.catalog.pairs:
        if pair.site is None:
            if not annotation:
                continue
            where = "annotation"
        else:
            location = pair.site.location
            where = f"{Path(location.path).name}:{location.line}"
        found.add((pair.host.name, pair.device.name, where))
    return found


def test_an_isinstance_chain_sends_each_subclass_to_its_own_branch(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/cache.py": """
                from pkg.pools import Dev, DevWide, DevNarrow, Host, HostWide

                class Cache:
                    def __init__(self, kv):
                        self.kv = kv
                        if isinstance(self.kv, DevWide):
                            self.host = HostWide(self.kv)
                        elif isinstance(self.kv, (Dev,)) and not isinstance(self.kv, DevNarrow):
                            self.host = Host(self.kv)
                        else:
                            raise ValueError("no host")
            """,
        },
    )
    assert pairs(result) == {
        ("HostWide", "DevWide", "cache.py:7"),
        ("Host", "Dev", "cache.py:9"),
    }
    assert result.findings == []
    [pair] = [p for p in result.catalog.pairs if p.host.name == "Host"]
    assert "not (isinstance(self.kv, DevWide))" in pair.evidence.text()
    assert pair.evidence.as_json()["guards"][0] == "not (isinstance(self.kv, DevWide))"


def test_without_its_site_the_host_is_paired_by_annotation_and_disagrees(tmp_path):
    """The counterfactual of the test above: no construction site, annotation pairing."""
    result = run(tmp_path, {})
    found = pairs(result, annotation=True)
    assert {(h, d) for h, d, _ in found} >= {("Host", "DevWide"), ("Host", "DevNarrow")}
    assert all(where == "annotation" for _, _, where in found)
    assert {f.device.class_name for f in result.findings if f.host.class_name == "Host"} == {
        "DevWide",
        "DevNarrow",
    }
    assert all("no construction site in the audited paths" in f.pairing for f in result.findings)


def test_an_early_return_negates_its_guard_for_what_follows(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/factory.py": """
                from pkg.pools import Dev, DevWide, Host, HostWide

                def make(kv: Dev):
                    if isinstance(kv, DevWide):
                        return HostWide(kv)
                    if type(kv) is Dev:
                        return Host(kv)
                    return None
            """,
        },
    )
    assert pairs(result) == {
        ("HostWide", "DevWide", "factory.py:5"),
        ("Host", "Dev", "factory.py:7"),
    }


def test_a_class_chosen_in_the_function_and_kwargs_built_there(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/factory.py": """
                from pkg.pools import Dev, DevWide, Host

                def make(kv: DevWide):
                    cls = Host
                    kwargs = {"width": kv.width}
                    return cls(kv, **kwargs)
            """,
        },
    )
    assert pairs(result) == {("Host", "DevWide", "factory.py:6")}
    [pair] = [p for p in result.catalog.pairs if p.site is not None]
    assert pair.site.how == "class chosen in the function"
    assert sorted(pair.site.arguments) == ["device_pool", "width"]
    assert site_findings(result) == []  # width=kv.width is read off the device pool: 128 = 128


def test_a_second_site_forgetting_the_argument_is_reported_there(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/first.py": """
                from pkg.pools import DevWide, Host

                def make(kv: DevWide):
                    return Host(kv, width=kv.width)
            """,
            "pkg/second.py": """
                from pkg.pools import DevWide, Host

                def make_again(kv: DevWide):
                    return Host(kv)
            """,
        },
    )
    [finding] = site_findings(result)
    assert Path(finding.location.path).name == "second.py" and finding.location.line == 4
    assert "width is not passed here" in finding.message
    assert "first.py:4 agrees" in finding.message
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (64, 128)


def test_one_disagreement_at_every_site_is_reported_once_at_the_host(tmp_path):
    sites = {
        f"pkg/site{i}.py": """
            from pkg.pools import DevNarrow, Host

            def make(kv: DevNarrow):
                return Host(kv)
        """
        for i in (1, 2)
    }
    result = run(tmp_path, sites)
    [finding] = site_findings(result)
    assert Path(finding.location.path).name == "pools.py"
    assert "site1.py:4" in finding.pairing and "site2.py:4" in finding.pairing
    assert [s["site"]["line"] for s in finding.pairing_detail["sites"]] == [4, 4]


def test_a_dict_keyed_by_the_device_type(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/table.py": """
                from pkg.pools import Dev, DevWide, Host, HostWide

                HOSTS = {Dev: Host, DevWide: HostWide}
            """,
            "pkg/factory.py": """
                from pkg.table import HOSTS

                def make(kv):
                    return HOSTS[type(kv)](kv)
            """,
        },
    )
    # factory.py does not name a host class: the dict's name leads there (a second search)
    assert pairs(result) == {
        ("Host", "Dev", "factory.py:4"),
        ("HostWide", "DevWide", "factory.py:4"),
    }
    assert site_findings(result) == []


def test_a_site_in_a_file_the_prefilter_skips_with_a_local_import(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/late.py": """
                def build(kv):
                    from pkg.pools import DevNarrow, Host

                    if isinstance(kv, DevNarrow):
                        return None
                    return Host(kv)
            """,
            "pkg/unrelated.py": "VALUE = 1\n",
        },
    )
    assert {(h, d) for h, d, _ in pairs(result)} == {("Host", "Dev"), ("Host", "DevWide")}
    assert {w for _, _, w in pairs(result)} == {"late.py:6"}


def test_unfollowed_kwargs_leave_the_other_arguments_unknown(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/factory.py": """
                from pkg.pools import DevWide, Host

                def make(kv: DevWide, options):
                    return Host(kv, **options)
            """,
        },
    )
    assert site_findings(result) == []  # `width` may be in `options`: no guess, no finding
    # the host's buffer is unresolved (its width is `width or 64`, width unknown)
    assert "Host.kv_buffer" in {u.subject for u in result.unresolved}
    [pair] = [p for p in result.catalog.pairs if p.site is not None]
    assert pair.site.unfollowed.startswith("**options is not followed")
    assert "arguments as make() computes them" in pair.evidence.text()
    reasons = {u.unknown.reason for u in result.unresolved if u.subject == "Host.kv_buffer"}
    assert any("may be passed by an unknown **" in r and "options" in r for r in reasons), reasons


def test_a_class_taking_a_device_pool_without_its_buffers_is_not_a_host(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/view.py": """
                from typing import Any

                import torch

                class Broadcaster:
                    def __init__(self, device_pool: Any, chunk: int = 16):
                        self.device_pool = device_pool
                        self.staging = torch.empty((chunk, 64), dtype=torch.uint8)
            """,
        },
    )
    assert "Broadcaster" not in {h.name for h in result.catalog.hosts}
    assert [c.name for c, _ in result.catalog.not_hosts] == ["Broadcaster"]
    assert not any("Broadcaster" in u.unknown.reason for u in result.unresolved)


def test_a_call_with_too_many_arguments_is_unresolved_not_paired(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/broken.py": """
                from pkg.pools import DevNarrow, Host

                def make(kv: DevNarrow):
                    return Host(kv, 1, 2, 3)
            """,
        },
    )
    # the only site cannot build it: no pair, and no fallback to the annotation either
    assert not any(host == "Host" for host, _, _ in pairs(result, annotation=True))
    reasons = [u.unknown.reason for u in result.unresolved if u.subject == "pairing"]
    assert any("broken.py:4: more positional arguments than Host() takes" in r for r in reasons)


def test_a_site_in_a_file_python_cannot_parse_is_an_e902_and_the_rest_is_audited(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/bad.py": "from pkg.pools import Host\ndef make(kv:\n    return Host(kv)\n",
            "pkg/good.py": """
                from pkg.pools import DevWide, Host

                def make(kv: DevWide):
                    return Host(kv, width=kv.width)
            """,
        },
    )
    assert [Path(e.path).name for e in result.errors] == ["bad.py"]
    assert pairs(result) == {("Host", "DevWide", "good.py:4")}


def test_an_argument_read_from_a_local_variable_is_unknown_not_a_guess(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/factory.py": """
                from pkg.pools import DevWide, Host

                WIDTH = 64  # a module constant of the same name must not stand in for the local

                def make(kv: DevWide, wide):
                    WIDTH = 128 if wide else 64
                    return Host(kv, width=WIDTH)
            """,
        },
    )
    assert site_findings(result) == []
    assert "Host.kv_buffer" in {u.subject for u in result.unresolved}  # `width or 64` undecided
    [pair] = [p for p in result.catalog.pairs if p.site is not None]
    value = site_value(pair.site, "width", None, None)
    assert value.reason == "reads 'WIDTH', a variable of pkg.factory.make"


def test_a_module_constant_argument_is_read(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/factory.py": """
                from pkg.pools import DevWide, Host

                WIDTH = 96

                def make(kv: DevWide):
                    return Host(kv, width=WIDTH)
            """,
        },
    )
    [finding] = site_findings(result)
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (96, 128)
    assert Path(finding.location.path).name == "pools.py"  # no other site: the host's formula


def test_an_argument_written_differently_is_named_when_nothing_is_left_out(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/first.py": """
                from pkg.pools import DevWide, Host

                def make(kv: DevWide):
                    return Host(kv, width=kv.width)
            """,
            "pkg/second.py": """
                from pkg.pools import DevWide, Host

                def make(kv: DevWide):
                    return Host(kv, width=kv.width // 2)
            """,
        },
    )
    [finding] = site_findings(result)
    assert Path(finding.location.path).name == "second.py"
    assert "width=kv.width // 2 here, width=kv.width at " in finding.message


def test_cls_in_a_classmethod_of_the_host_is_a_site(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/alt.py": """
                import torch

                from pkg.pools import Dev, DevNarrow

                class AltHost:
                    def __init__(self, device_pool: Dev, width: int = 64):
                        self.size = device_pool.size
                        self.layer_num = device_pool.layer_num
                        self.kv_buffer = torch.zeros((self.layer_num, self.size, width))

                    @classmethod
                    def for_narrow(cls, kv: DevNarrow):
                        return cls(kv, width=32)
            """,
        },
    )
    assert ("AltHost", "DevNarrow", "alt.py:13") in pairs(result)
    assert not any(
        host == "AltHost" for host, _, w in pairs(result, annotation=True) if w == "annotation"
    )


HOLDER = """
    from pkg.pools import Dev, DevNarrow, DevWide, Host

    class Hybrid:
        def __init__(self, size, layer_num, narrow, make):
            if narrow:
                PoolClass = DevNarrow
            else:
                PoolClass = Dev
            self.full_pool = PoolClass(size, layer_num)
            self.other = make(size, layer_num)

    class Cache:
        def __init__(self, kv):
            self.hybrid = kv
            if not isinstance(self.hybrid, Hybrid):
                raise ValueError("needs a hybrid pool")
            self.kv = self.hybrid.{attribute}
            self.host = Host(self.kv)
"""


def test_a_device_read_off_an_attribute_is_what_its_owner_builds_into_it(tmp_path):
    """`Hybrid.full_pool` is only ever a Dev or a DevNarrow: DevWide (which Host's annotation
    admits, and which would disagree) cannot reach the site."""
    result = run(tmp_path, {"pkg/cache.py": HOLDER.replace("{attribute}", "full_pool")})
    assert {(h, d) for h, d, _ in pairs(result)} == {("Host", "Dev"), ("Host", "DevNarrow")}
    [finding] = [f for f in result.findings if f.host.class_name == "Host"]
    assert finding.device.class_name == "DevNarrow"  # 64 vs 32: the real disagreement stays
    pair = next(p for p in result.catalog.pairs if p.device.name == "Dev")
    assert "self.hybrid.full_pool holds DevNarrow | Dev" in pair.evidence.text()


def test_an_attribute_built_by_an_opaque_call_does_not_narrow(tmp_path):
    """`self.other = make(...)`: what it holds is not known, so the annotation's classes stay."""
    result = run(tmp_path, {"pkg/cache.py": HOLDER.replace("{attribute}", "other")})
    assert {d for _, d, _ in pairs(result)} == {"Dev", "DevWide", "DevNarrow"}


def test_an_annotation_in_another_branch_does_not_type_a_plain_assignment(tmp_path):
    """SGLang 0.5.23 `HiSparseCoordinator`: `self.pool = holder.main` then a host in one branch,
    `self.pool: DevNarrow = holder` then a host in the other. The annotation types its own
    branch's site only (before, it typed both, and the first site was said to pair nothing
    because DevNarrow is no Dev); the other site says what it cannot know."""
    result = run(
        tmp_path,
        {
            "pkg/cache.py": """
                from pkg.pools import DevNarrow, Host

                class Coordinator:
                    def __init__(self, holder, split: bool):
                        if split:
                            self.pool = holder.main
                            self.host = Host(self.pool)
                        else:
                            self.pool: DevNarrow = holder
                            self.host = Host(self.pool)
            """
        },
    )
    # the plain branch's device is read off an object of no known class: said, not guessed
    # (every Dev the host's annotation admits would pair there, DevWide disagreeing)
    assert {d for _, d, where in pairs(result)} == {"DevNarrow"}
    assert {where for _, _, where in pairs(result)} == {"cache.py:10"}
    [said] = [u for u in result.unresolved if "an object of no known class" in u.unknown.reason]
    assert said.unknown.location.line == 7
    at_sites = [f for f in result.findings if "cache.py" in f.pairing]
    assert {f.device.class_name for f in at_sites} == {"DevNarrow"}  # 64 vs 32, its branch


RECORDS = """
    import torch

    class Info:
        def __init__(self, k):
            self.k = k

    class Dev:
        def __init__(self, size, layer_num):
            self.k_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]

        def info(self):
            return Info(self.k_buffer)

    class DevPacked(Dev):
        def __init__(self, size, layer_num):
            self.k_buffer = [torch.zeros((size, 32), dtype=torch.uint8) for _ in range(layer_num)]

    class RecordHost:
        def __init__(self, buffer_info: Info):
            self.k_buffer = torch.zeros((len(buffer_info.k), buffer_info.k[0].shape[0], 64))

    class Coordinator:
        def __init__(self, holder, split: bool):
            if split:
                self.pool = holder.main
                self.host = RecordHost(buffer_info=self.pool.info())
            else:
                self.pool: DevPacked = holder
                self.host = RecordHost(buffer_info=self.pool.info())
"""


def test_a_record_read_off_an_object_of_no_known_class_is_said_not_guessed(tmp_path):
    """The same at a host built from the device's record (0.5.23 `HiSparseMHATokenToKVPoolHost`
    from `kvcache.main_pool`): every pool making such a record would be a guess (DevPacked
    would disagree; the code may never hand it over), so that site pairs nothing and says why;
    the annotated branch keeps its type."""
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": RECORDS})
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([tmp_path], settings)
    assert {(p.device.name, p.site.location.line) for p in result.catalog.pairs} == {
        ("DevPacked", 29)
    }
    [said] = [u for u in result.unresolved if "an object of no known class" in u.unknown.reason]
    assert "self.pool = holder.main" in said.unknown.reason
    assert said.unknown.location.line == 26


def test_a_host_typed_with_a_class_that_is_no_device_pool_is_said_not_dropped(tmp_path):
    """SGLang 0.5.23 `QSAIndexerPoolHost(device_pool: QSATokenToKVPool)`: a device class
    nothing makes a device pool (its list is of shards, not layers: no layer count); the host
    was dropped without a word. It is listed as a host never paired, with the reason, and
    counted. (A list named for layers, `layer_ids`, counts layers since session 32.)"""
    result = run(
        tmp_path,
        {
            "pkg/sparse.py": """
                import torch

                class SparsePool:
                    def __init__(self, size, shard_ids):
                        self.kv_buffer = [torch.zeros((size, 8)) for _ in shard_ids]

                class SparseHost:
                    def __init__(self, device_pool: SparsePool):
                        self.kv_buffer = torch.zeros((len(device_pool.kv_buffer), 8))

                def build(pool):
                    return SparseHost(pool)
            """
        },
    )
    assert not [p for p in result.catalog.pairs if p.host.name == "SparseHost"]
    [(_, why)] = [(c, w) for c, w in result.catalog.unpaired if c.name == "SparseHost"]
    assert "names SparsePool, which is not a device pool" in why
    assert "sparse.py:" in why and "(device_pool=pool): nothing there narrows" in why
    assert [u for u in result.coverage.unpaired if u[0] == "SparseHost"]
    assert "1 host never paired" in result.coverage.line()


FLAGGED = """
    from pkg.pools import Dev, DevNarrow, DevWide, Host

    class Holder:
        def __init__(self, size, layer_num, main_cls=Dev):
            self.main = main_cls(size, layer_num)

    class WideHolder(Holder):
        def __init__(self, size, layer_num):
            super().__init__(size, layer_num, main_cls=DevWide)

    class Coordinator:
        def __init__(self, holder, other):
            self.is_held = isinstance(holder, {tested})
            {between}
            if self.is_held:
                self.pool = holder.main
                self.host = Host(self.pool)
"""


def flagged(root: Path, tested: str = "Holder", between: str = "pass") -> AuditResult:
    text = FLAGGED.replace("{tested}", tested).replace("{between}", between)
    return run(root, {"pkg/cache.py": text})


def test_a_flag_holding_an_isinstance_test_guards_and_a_class_parameter_is_followed(tmp_path):
    """SGLang 0.5.23 `HiSparseCoordinator`: `self.is_m3 = isinstance(kvcache, SparsePool)`,
    then `if self.is_m3: self.pool = kvcache.main_pool`, the main pool built as
    `main_pool_cls(...)`, a parameter whose default subclasses replace. The device is the
    default or what a subclass passes: never DevNarrow, which nothing builds into `main`."""
    result = flagged(tmp_path)
    assert {(h, d) for h, d, _ in pairs(result)} == {("Host", "Dev"), ("Host", "DevWide")}
    [finding] = [f for f in result.findings if "cache.py" in f.pairing]
    assert finding.device.class_name == "DevWide"  # 64 vs 128: a real disagreement
    pair = next(p for p in result.catalog.pairs if p.device.name == "Dev")
    assert "holder.main holds Dev | DevWide" in pair.evidence.text()


def test_a_flag_on_a_subclass_takes_what_that_subclass_passes(tmp_path):
    result = flagged(tmp_path, tested="WideHolder")
    assert {d for _, d, _ in pairs(result)} == {"DevWide"}


def test_a_flag_is_dropped_when_it_or_what_it_tests_is_bound_again(tmp_path):
    """Bound again before the test (the flag, or the object it tested), the flag says nothing
    of the object at the site: no narrowing, so every pool the host's annotation admits is
    paired there, as for any device read off an object of no known class."""
    for between in ("holder = other", "self.is_held = bool(other)"):
        result = flagged(tmp_path / between.split()[0], between=between)
        assert {d for _, d, _ in pairs(result)} == {"Dev", "DevWide", "DevNarrow"}, between
        assert not any("holds" in p.evidence.text() for p in result.catalog.pairs), between
