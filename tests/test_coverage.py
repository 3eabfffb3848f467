"""Coverage: every report says which host/device pairs were compared, and a pair never compared
never reads as agreeing (auditor/coverage.py).

fixtures/never_compared has three pairs: one compared (and agreeing), one whose host always
raises (no feasible config point), one whose host figures are unresolved.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from helpers import write_tree

from auditor import coverage
from auditor.checks.wording import device_counterpart
from auditor.cli import main
from auditor.evaluation.evaluate import Evaluation, PointResult
from auditor.evaluation.measure import BufferFigure
from auditor.interpret.control import Infeasible
from auditor.interpret.values import Unknown
from auditor.location import Location
from auditor.pipeline import AuditResult, audit
from auditor.report import github, json_report, sarif, table, text
from auditor.settings import Settings, load_settings

REPO = Path(__file__).resolve().parent.parent
FIXTURE = "fixtures/never_compared"
RAISES = "MHATokenToKVPoolHost <- MHATokenToKVPool"
UNRESOLVED = "MLATokenToKVPoolHost <- MLATokenToKVPool"
COMPARED = "MLATokenToKVPoolPinnedHost <- MLATokenToKVPool"
# the pair the host refuses at every point is no pair to compare: counted apart
LINE = "1 of 2 pairs compared, 1 never (1 host figures unresolved), 1 refused by the host"
SCHEMA_FILE = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def result() -> AuditResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)  # paths as the CLI prints them from the repository root
        return audit([Path(FIXTURE)], load_settings(None))


def by_title(result: AuditResult) -> dict[str, coverage.PairCoverage]:
    return {pair.title: pair for pair in result.coverage.pairs}


# ---- the data --------------------------------------------------------------------------------


def test_each_pair_has_its_points_and_reason(result):
    pairs = by_title(result)
    assert sorted(pairs) == sorted([RAISES, UNRESOLVED, COMPARED])
    raises, unresolved, compared = pairs[RAISES], pairs[UNRESOLVED], pairs[COMPARED]
    assert (raises.points_compared, raises.points_feasible, raises.points_total) == (0, 0, 8)
    assert raises.reason == coverage.REFUSED  # the raise is in the host's constructor
    assert "NotImplementedError" in raises.detail
    assert (unresolved.points_compared, unresolved.points_feasible) == (0, 8)
    assert unresolved.reason == coverage.HOST_UNRESOLVED
    assert "host_row_width" in unresolved.detail
    assert (compared.points_compared, compared.points_feasible, compared.reason) == (8, 8, None)
    assert result.coverage.compared == 1
    assert result.coverage.reasons() == {coverage.HOST_UNRESOLVED: 1}
    assert [p.title for p in result.coverage.refused] == [RAISES]
    assert len(result.coverage.never_compared) == 2  # both listed everywhere
    assert result.coverage.line() == LINE
    assert result.coverage.notice is None


def test_each_pair_never_compared_is_an_unresolved_item_naming_it(result):
    never = [item for item in result.unresolved if item.unknown.reason.startswith("never ")]
    assert sorted(item.subject for item in never) == sorted([RAISES, UNRESOLVED])
    [raises] = [item for item in never if item.subject == RAISES]
    assert raises.unknown.reason.startswith("never compared: refused by the host: raises")
    # the pair's own "no feasible config point" item is replaced, not repeated
    assert not [i for i in result.unresolved if i.unknown.reason.startswith("no feasible")]


def point(host: dict, device: dict, **kwargs) -> PointResult:
    return PointResult({}, device=device, host=host, **kwargs)


def figure(name: str, size: int | None = 8, why: str | None = None) -> BufferFigure:
    unknown = Unknown(why, None) if why is not None else None
    return BufferFigure(name, Location("x.py", 1), size if why is None else None, unknown=unknown)


def evaluation_of(*points: PointResult) -> Evaluation:
    return Evaluation(device=None, host=None, points=list(points), varied=[], truncated=False)


@pytest.mark.parametrize(
    ("points", "reason", "detail"),
    [
        ([], coverage.NOT_EVALUATED, None),
        (
            [point({}, {}, infeasible=Infeasible("assert page_size == 64", None))],
            coverage.INFEASIBLE,
            "assert page_size == 64",
        ),
        (
            [
                point({}, {}, infeasible=Infeasible("assert x", None)),
                point({}, {}, failure=Unknown("host X may raise", None)),
            ],
            coverage.FAILED,
            "host X may raise (1 of 2 points infeasible: assert x)",
        ),
        (  # two device storages: which one `a` mirrors is not said
            [point({"a": figure("a")}, {"b": figure("b"), "c": figure("c")})],
            coverage.NO_COUNTERPART,
            "host buffers: a; device buffers: b, c",
        ),
        (  # the host's only attribute holds the device's own tensor
            [point({}, {"slab": figure("slab")}, held=["device_slab"])],
            coverage.VIEW,
            "it holds the device's own tensors (device_slab) and no storage of its own",
        ),
        (
            [point({"k": figure("k")}, {"k": figure("k", why="dev?")})],
            coverage.DEVICE_UNRESOLVED,
            None,
        ),
        (
            [point({"k": figure("k", why="h?")}, {"k": figure("k", why="d?")})],
            coverage.BOTH_UNRESOLVED,
            "host k: h?; device k: d?",
        ),
    ],
    ids=["no-point", "infeasible", "failed", "no-counterpart", "view", "device", "both"],
)
def test_why_an_evaluation_compared_nothing(points, reason, detail):
    counted = coverage.evaluation_coverage(evaluation_of(*points), Settings())
    assert (counted.compared, counted.reason) == (False, reason)
    if detail is not None:
        assert counted.detail == detail


def test_one_resolved_buffer_at_one_point_is_compared():
    settings = Settings(buffer_map={"kv": ["k", "v"]})
    points = [
        point({"kv": figure("kv", why="?")}, {"k": figure("k"), "v": figure("v")}),
        point({"kv": figure("kv", 16)}, {"k": figure("k"), "v": figure("v")}),  # via buffer-map
    ]
    counted = coverage.evaluation_coverage(evaluation_of(*points), settings)
    assert (counted.points_compared, counted.points_feasible, counted.reason) == (1, 2, None)


def test_a_sole_storage_under_another_name_is_compared():
    """One storage growing with tokens on each side, no name shared: counterparts (MiniMax
    NVFP4's host `kv_buffer` over the device's page-row `slab`); 0 B/token/layer bitmaps and
    scales do not count. With a second device storage, or a name shared, no guess is made."""
    host = {"kv_buffer": figure("kv_buffer", 1152), "mem_state": figure("mem_state", 0)}
    device = {"slab": figure("slab", 1152), "global_scale": figure("global_scale", 0)}
    settings = Settings()
    assert device_counterpart("kv_buffer", device, settings, host) is device["slab"]
    assert device_counterpart("mem_state", device, settings, host) is None
    counted = coverage.evaluation_coverage(evaluation_of(point(host, device)), settings)
    assert (counted.points_compared, counted.reason) == (1, None)
    two = {**device, "index": figure("index", 64)}
    assert device_counterpart("kv_buffer", two, settings, host) is None
    shared = {**host, "global_scale": figure("global_scale", 0)}
    assert device_counterpart("kv_buffer", device, settings, shared) is None
    unresolved = {
        "kv_buffer": figure("kv_buffer", why="anchor?"),
        "mem_state": figure("m", why="?"),
    }
    assert device_counterpart("kv_buffer", device, settings, unresolved) is device["slab"]


def test_a_view_of_the_device_is_counted_apart_and_its_host_keeps_no_device_tensor():
    """tests/data/device_view: a host mirror built from the device's record keeps the device's
    slab (`self.device_slab = buffer_info.slab`): not host storage; an entry holding only the
    device's rows is a view of the device, not a mirror: counted apart, as refused pairs are."""
    result = audit([REPO / "tests" / "data" / "device_view"], load_settings(None))
    pairs = by_title(result)
    view = pairs["DeviceRowsEntry <- PageRowKVPool"]
    assert (view.reason, view.compared) == (coverage.VIEW, False)
    assert pairs["PageRowKVPoolHost <- PageRowKVPool"].compared
    assert result.coverage.line() == "1 of 1 pairs compared, 1 view of the device pool"
    assert result.coverage.summary_json()["pairs_views_of_device"] == 1
    assert result.coverage.uncompared == [] and result.coverage.views == [view]
    [mirror] = [e for e in result.evaluations if e.host and e.host.name == "PageRowKVPoolHost"]
    for p in mirror.feasible:
        assert p.held == ["device_slab"] and sorted(p.host) == ["kv_buffer"]
        assert p.host["kv_buffer"].same_size(p.device["slab"])
    grids = {g.title: g for g in table.build(result, load_settings(None))}
    assert grids["DeviceRowsEntry <- PageRowKVPool"].unmirrored == []


# ---- every report ----------------------------------------------------------------------------


def test_summary_line_says_what_was_compared(result):
    err = io.StringIO()
    text.summary(result, err)
    assert f", 3 pairs · {LINE} · 24 config points · 3 unresolved" in err.getvalue()


def test_text_table_shows_not_compared_never_no_disagreement(result):
    grids = {grid.title: grid for grid in table.build(result, load_settings(None))}
    out = io.StringIO()
    table.render_text(list(grids.values()), out)
    blocks = {block.split("\n", 1)[0]: block for block in out.getvalue().split("\n\n")[1:]}
    assert "not compared: refused by the host: raises NotImplementedError" in blocks[RAISES]
    assert "not compared (host figures unresolved); 8 cells unresolved" in blocks[UNRESOLVED]
    assert "no disagreement" in blocks[COMPARED]
    for title in (RAISES, UNRESOLVED):
        assert "no disagreement" not in blocks[title]
        assert not grids[title].compared


def test_html_table_shows_not_compared(result):
    grids = table.build(result, load_settings(None))
    out = io.StringIO()
    table.render_html(grids, out)
    sections = out.getvalue().split("<section ")[1:]
    titles = {
        s.split("<h2>", 1)[1].split("</h2>", 1)[0].replace(" &larr; ", " <- "): s for s in sections
    }
    for title in (RAISES, UNRESOLVED):
        assert titles[title].startswith('class="pair not-compared"')
        assert "not compared (" in titles[title] and "no disagreement" not in titles[title]
    assert titles[COMPARED].startswith('class="pair"') and "no disagreement" in titles[COMPARED]


def test_json_has_findings_coverage_and_summary(result):
    out = io.StringIO()
    json_report.render(result, out)
    document = json.loads(out.getvalue())
    assert list(document) == ["findings", "coverage", "summary"]
    assert document["findings"] == []
    summary = document["summary"]
    assert (summary["pairs"], summary["pairs_compared"], summary["pairs_never_compared"]) == (
        3,
        1,
        1,
    )
    assert summary["pairs_refused_by_host"] == 1
    assert summary["never_compared_reasons"] == {
        "host figures unresolved": 1,
    }
    assert summary["notice"] is None and summary["unresolved"] == len(result.unresolved)
    items = {f"{i['host']} <- {i['device']}": i for i in document["coverage"]}
    assert items[RAISES]["compared"] is False and items[RAISES]["points_total"] == 8
    assert items[RAISES]["path"].endswith("memory_pool_host.py")
    assert items[COMPARED]["compared"] is True and items[COMPARED]["reason"] is None


def test_github_job_summary_lists_the_pairs_never_compared(result, tmp_path):
    summary = tmp_path / "summary.md"
    github.render(result, io.StringIO(), summary_path=summary)
    written = summary.read_text()
    assert f"**Coverage:** {LINE}" in written
    rows = [
        line for line in written.splitlines() if line.startswith("| MH") or line.startswith("| ML")
    ]
    assert len(rows) == 2
    assert any(
        "MHATokenToKVPoolHost &lt;- MHATokenToKVPool" in r and "refused by the host" in r
        for r in rows
    )
    assert not any(COMPARED.split(" <- ")[0] in r for r in rows)


def test_sarif_run_properties_carry_the_coverage(result):
    out = io.StringIO()
    sarif.render(result, out)
    document = json.loads(out.getvalue())
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    properties = document["runs"][0]["properties"]["coverage"]
    assert (properties["pairs"], properties["pairsCompared"], properties["pairsNeverCompared"]) == (
        3,
        1,
        1,
    )
    assert properties["pairsRefusedByHost"] == 1
    assert sorted(f"{p['host']} <- {p['device']}" for p in properties["neverCompared"]) == sorted(
        [RAISES, UNRESOLVED]
    )


def test_cached_result_keeps_its_coverage(result):
    from auditor.incremental.cache import dump, load

    assert load(json.loads(json.dumps(dump(result)))).coverage == result.coverage


# ---- failing on what was not compared ---------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["--no-cache", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def chdir_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_fail_on_uncompared_exits_1(capsys, chdir_repo):
    code, _, err = run(capsys, "--isolated", FIXTURE)
    assert code == 0  # off by default: no finding
    code, _, err = run(capsys, "--isolated", "--fail-on-uncompared", FIXTURE)
    assert code == 1
    assert "failing: 1 host/device pair never compared (fail-on-uncompared)" in err
    code, _, _ = run(capsys, "--isolated", "--fail-on-uncompared", "--exit-zero", FIXTURE)
    assert code == 0


def test_fail_on_uncompared_passes_when_every_pair_is_compared(capsys, chdir_repo):
    code, _, err = run(capsys, "--isolated", "--fail-on-uncompared", "fixtures/incident_fixed")
    assert code == 0 and "failing" not in err and "2 of 2 pairs compared" in err


def test_fail_on_unresolved_exits_1(capsys, chdir_repo):
    code, _, err = run(capsys, "--isolated", "--fail-on-unresolved", FIXTURE)
    assert code == 1 and "unresolved items (fail-on-unresolved" in err
    code, _, _ = run(capsys, "--isolated", "--fail-on-unresolved", "fixtures/incident_fixed")
    assert code == 0


def test_fail_on_uncompared_from_the_config(tmp_path, capsys, monkeypatch):
    tree = tmp_path / "project"
    write_tree(tree, {"pyproject.toml": "[tool.layout-audit]\nfail-on-uncompared = true\n"})
    shutil.copytree(REPO / FIXTURE, tree / "never_compared")
    monkeypatch.chdir(tree)
    code, _, err = run(capsys, "never_compared")
    assert code == 1 and "fail-on-uncompared" in err
    (tree / "pyproject.toml").write_text("[tool.layout-audit]\nfail-on-uncompared = 1\n")
    code, _, err = run(capsys, "never_compared")
    assert code == 2 and "fail-on-uncompared: expected true or false" in err


# ---- nothing audited ----------------------------------------------------------------------------

DEVICE = """
    import torch

    class Pool:
        def __init__(self, size, layer_num, dtype):
            self.k_buffer = [torch.zeros((size, 8), dtype=dtype) for _ in range(layer_num)]
"""


def test_no_pool_warns_what_was_looked_for(tmp_path, capsys, monkeypatch):
    # a class that allocates nothing: neither by name nor by behaviour a pool (a device pool
    # merely named otherwise is recognised by its allocations, tests/test_behaviour.py)
    config = """
        class ModelConfig:
            def __init__(self, n_layers):
                self.n_layers = n_layers
    """
    write_tree(tmp_path, {"pools.py": config})
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--isolated", ".")
    assert code == 0
    warning = next(line for line in err.splitlines() if line.startswith("layout-audit: warning:"))
    assert "no device pool found in 1 file" in warning
    assert "layer_num" in warning and "[tool.layout-audit.parameters]" in warning
    code, out, err = run(capsys, "--isolated", "--output-format", "json", ".")
    assert "no device pool found" in err
    assert "[tool.layout-audit.parameters]" in json.loads(out)["summary"]["notice"]
    code, _, err = run(capsys, "--isolated", "--fail-on-uncompared", ".")
    assert code == 1 and "no host/device pair to compare" in err


def test_devices_without_a_host_warn_how_to_name_the_host(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"pools.py": DEVICE})
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--isolated", ".")
    assert code == 0
    assert "layout-audit: warning: no host pool found in 1 file (1 device pool" in err
    assert "device_pool" in err and "device-pool" in err


def test_hosts_never_paired_warn(tmp_path, capsys, monkeypatch):
    host = """
        import torch

        class Host:
            def __init__(self, device_pool):
                self.k_buffer = torch.zeros((4, 8))
    """
    write_tree(tmp_path, {"pools.py": DEVICE, "host.py": host})
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--isolated", ".")
    assert "no host/device pair found in 2 files (1 device pool, 1 host pool)" in err
    assert "[tool.layout-audit.pairs]" in err


def test_no_warning_when_a_pair_exists(capsys, chdir_repo):
    _, _, err = run(capsys, "--isolated", "fixtures/incident_fixed")
    assert "warning" not in err


REFUSAL = """
    import torch

    class Dev:
        def __init__(self, size: int, layer_num: int):
            DEVICE_RAISE
            self.size = size
            self.kv_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]

    class BaseHost:
        def __init__(self, pool: Dev, capacity: int):
            HOST_RAISE
            self.size = capacity

    class Host(BaseHost):
        def __init__(self, pool: Dev, capacity: int):
            super().__init__(pool, capacity)
            self.kv_buffer = torch.zeros((len(pool.kv_buffer), capacity, 64), dtype=torch.uint8)

    def build(pool: Dev):
        return Host(pool, capacity=pool.size)
"""


@pytest.mark.parametrize(
    ("device_raise", "host_raise", "reason"),
    [
        ("pass", 'raise NotImplementedError("no host for it")', coverage.REFUSED),
        ('raise NotImplementedError("no such pool")', "pass", coverage.INFEASIBLE),
    ],
    ids=["host-base-refuses", "device-refuses"],
)
def test_a_pair_the_host_refuses_is_told_from_one_no_point_accepts(
    tmp_path, device_raise, host_raise, reason
):
    """A raise in the host's constructor (here its base class's) at every point: the code does
    not build the pair, said as such; a raise in the device's: no feasible config point."""
    source = REFUSAL.replace("DEVICE_RAISE", device_raise).replace("HOST_RAISE", host_raise)
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/pools.py": source})
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([tmp_path], settings)
    [pair] = result.coverage.pairs
    assert (pair.title, pair.compared, pair.reason) == ("Host <- Dev", False, reason)
    assert pair.detail.startswith("raises NotImplementedError")


def test_a_host_of_other_names_with_an_unknown_figure_is_unresolved_not_unmatched(tmp_path):
    """A host sharing no buffer name with its device may still mirror it under another name
    (wording._sole_storage matches the storages): while one of its figures is unknown, which
    storage mirrors which cannot be said, so the reason is the unknown figure, not "no host
    buffer with a device counterpart"; with the figure known, that reason stays."""
    pools = """
        import torch
        import outside

        class Dev:
            def __init__(self, size, layer_num):
                self.kv_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]

        class Side:  # another device pool: `stash` is a device buffer's name
            def __init__(self, size, layer_num):
                self.stash = [torch.zeros((size, 4), dtype=torch.uint8) for _ in range(layer_num)]

        class Host:
            def __init__(self, device_pool: Dev, size):
                self.size = size
                self.stash = torch.zeros((ROWS, 64), dtype=torch.uint8)
                self.other = torch.zeros((size, 8), dtype=torch.uint8)
    """
    for rows, reason in (
        ("outside.rows(size)", coverage.HOST_UNRESOLVED),
        ("size", coverage.NO_COUNTERPART),
    ):
        root = write_tree(
            tmp_path / rows.split("(")[0], {"pkg/pools.py": pools.replace("ROWS", rows)}
        )
        settings = load_settings(None)
        settings.respect_gitignore = False
        result = audit([root], settings)
        [pair] = result.coverage.pairs
        assert (pair.compared, pair.reason) == (False, reason), rows
