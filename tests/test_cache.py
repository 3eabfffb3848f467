"""The on-disk cache gives exactly the output of a run without it, and cannot be poisoned.

The oracle is always a `--no-cache` run of the same tree: full JSON, `--show-unresolved`,
`--show-pools`, the layout table and exit codes must be equal, cold and warm, and after any
damage to the cache folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import libcst
import pytest

import auditor.evaluation.evaluate
import auditor.frontend.parse
import auditor.incremental.cache
import auditor.incremental.results
import auditor.pipeline
from auditor.cli import main
from auditor.incremental.cache import CACHE_DIR_NAME, CACHE_ROOT_ENV, Cache, dump, load

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
VIEWS = [
    ["--output-format", "json"],
    ["--show-unresolved", "--show-pools", "--table"],
    ["--output-format", "sarif"],
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["--isolated", *argv])
    out, err = capsys.readouterr()
    return code, out, re.sub(r"\(\d+\.\d+s\)", "(time)", err)


@pytest.fixture(autouse=True)
def own_secret(tmp_path_factory, monkeypatch):
    """Each test's runs with a secret of their own (child processes inherit the variable)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))
    monkeypatch.delenv(CACHE_ROOT_ENV, raising=False)  # these tests check where the cache goes
    auditor.incremental.cache._secret.cache_clear()
    yield
    auditor.incremental.cache._secret.cache_clear()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of every pool fixture in a temporary working directory (where the cache goes).

    The vLLM fixtures are left out: a result with an engine stage's outcome is not stored
    whole (docs/vllm.md), so a tree holding them re-runs on every call by design."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures", ignore=shutil.ignore_patterns("vllm_*"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cache_dir(project: Path) -> Path:
    return project / CACHE_DIR_NAME


def entries(project: Path) -> list[Path]:
    return sorted(p for p in cache_dir(project).rglob("*.json"))


def all_views(capsys, *extra: str) -> list[tuple[int, str, str]]:
    return [run(capsys, "fixtures", *view, *extra) for view in VIEWS]


_REFERENCE: list[list[tuple[int, str, str]]] = []
NOTICE = "layout-audit: notice: cannot write the cache at "


def without_cache_notice(views: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The views with the notice an entry that cannot be written back prints (an entry
    replaced by a folder) taken out of stderr."""
    return [
        (code, out, "".join(line for line in err.splitlines(True) if not line.startswith(NOTICE)))
        for code, out, err in views
    ]


def reference_views(capsys) -> list[tuple[int, str, str]]:
    """`all_views(--no-cache)` of the fixture copy: the same for every test of this module (the
    copy's paths are relative to the working directory), so computed once."""
    if not _REFERENCE:
        _REFERENCE.append(all_views(capsys, "--no-cache"))
    return _REFERENCE[0]


def test_same_output_without_cache_cold_and_warm_on_all_fixtures(project, capsys):
    reference = all_views(capsys, "--no-cache")
    assert not cache_dir(project).exists()  # --no-cache writes nothing
    assert reference[0][0] == 1 and json.loads(reference[0][1])["findings"]  # exit 1
    cold = all_views(capsys)
    assert entries(project)
    warm = all_views(capsys)
    assert cold == reference
    assert warm == reference


MORE_VIEWS = [
    ["--output-format", "github"],
    ["--show-pairs", "--show-unresolved"],
    ["--output-format", "json", "--show-pairs"],
    ["--output-format", "html"],
    ["--table-html", "table.html"],
]


def test_a_whole_result_read_back_prints_every_view_as_the_run_that_stored_it(
    project, capsys, monkeypatch
):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)

    def views(*extra: str) -> list:
        found = []
        for view in MORE_VIEWS:
            found.append(run(capsys, "fixtures", *view, *extra))
            if "--table-html" in view:
                found.append((project / "table.html").read_text())
        return found

    reference = views("--no-cache")
    run(capsys, "fixtures")  # stores the whole result
    evaluations, parses = count_evaluations(monkeypatch), count_libcst_parses(monkeypatch)
    warm = views()
    assert (evaluations, parses) == ([], [])  # every view from the stored result
    assert warm == reference
    assert "PAIR" in warm[2][1] and "pairing_evidence" in warm[2][1] and "<table" in warm[3][1]


def test_cache_folder_is_tagged_and_ignored_by_git(project, capsys):
    run(capsys, "fixtures/incident_buggy")
    folder = cache_dir(project)
    assert (
        (folder / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (folder / ".gitignore").read_text() == "*\n"
    assert not list(folder.rglob(".tmp-*"))  # every write completed its rename


def test_cache_goes_to_the_config_files_folder(tmp_path, monkeypatch, capsys):
    shutil.copytree(FIXTURES / "incident_buggy", tmp_path / "repo" / "incident_buggy")
    (tmp_path / "repo" / "pyproject.toml").write_text("[tool.layout-audit]\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main([str(tmp_path / "repo" / "incident_buggy")]) == 1
    capsys.readouterr()
    assert (tmp_path / "repo" / CACHE_DIR_NAME).is_dir()
    assert not (elsewhere / CACHE_DIR_NAME).exists()


def test_the_cache_root_variable_moves_the_cache_out_of_the_tree(tmp_path, monkeypatch, capsys):
    shutil.copytree(FIXTURES / "incident_buggy", tmp_path / "repo" / "incident_buggy")
    monkeypatch.chdir(tmp_path / "repo")
    monkeypatch.setenv(CACHE_ROOT_ENV, str(tmp_path / "outside"))
    assert main(["incident_buggy"]) == 1
    capsys.readouterr()
    assert (tmp_path / "outside" / CACHE_DIR_NAME / "CACHEDIR.TAG").is_file()
    assert not (tmp_path / "repo" / CACHE_DIR_NAME).exists()
    assert main(["--clean-cache"]) == 0
    assert not (tmp_path / "outside" / CACHE_DIR_NAME).exists()


def test_a_fully_warm_run_parses_nothing_with_libcst_and_never_imports_torch(project):
    """In a child process, so torch is not already imported by the test session."""
    script = (
        "import sys, libcst\n"
        "calls = []\n"
        "real = libcst.parse_module\n"
        "libcst.parse_module = lambda *a, **k: calls.append(1) or real(*a, **k)\n"
        "from auditor.cli import main\n"
        "code = main(['--isolated', 'fixtures', '--show-pools', '--table'])\n"
        "print('RESULT', code, 'torch' in sys.modules, len(calls), file=sys.stderr)\n"
    )
    outputs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=project
        )
        outputs.append(done)
    cold, warm = outputs
    # the cold run needed libcst, and torch's dtype facts from a child (never torch here)
    cold_code, cold_torch, cold_parses = cold.stderr.split("RESULT ")[1].split()[:3]
    assert (cold_code, cold_torch) == ("1", "False") and int(cold_parses) > 0, cold.stderr
    assert "RESULT 1 False 0" in warm.stderr, warm.stderr
    assert warm.stdout == cold.stdout


def test_a_changed_pool_file_is_evaluated_again(project, capsys):
    tree = project / "fixtures" / "incident_fixed"
    code, out, _ = run(capsys, "fixtures/incident_fixed", "--output-format", "json")
    assert (code, json.loads(out)["findings"]) == (0, [])
    buggy = project / "fixtures" / "incident_buggy"
    for path in buggy.rglob("*.py"):  # the incident fix reverted, file by file
        shutil.copyfile(path, tree / path.relative_to(buggy))
    changed = run(capsys, "fixtures/incident_fixed", "--output-format", "json")
    assert changed[0] == 1
    assert [f["code"] for f in json.loads(changed[1])["findings"]] == ["LA001"]
    assert changed == run(
        capsys, "fixtures/incident_fixed", "--output-format", "json", "--no-cache"
    )


def count_evaluations(monkeypatch, sites: list[str] | None = None) -> list[str]:
    """The path of the device pool of every evaluation run from now on (not read from the
    cache); `sites` gets the module of the construction site of those evaluated at one."""
    calls: list[str] = []
    real = auditor.evaluation.evaluate.PoolEvaluator.evaluate

    def evaluate(self, device, host=None, site=None):
        calls.append(device.module.path)
        if site is not None and sites is not None:
            sites.append(site.module.path)
        return real(self, device, host, site)

    monkeypatch.setattr(auditor.evaluation.evaluate.PoolEvaluator, "evaluate", evaluate)
    return calls


def count_libcst_parses(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = libcst.parse_module

    def parse_module(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(libcst, "parse_module", parse_module)
    return calls


def test_editing_a_file_without_pools_reuses_the_whole_result(project, capsys, monkeypatch):
    other = project / "fixtures" / "incident_buggy" / "sglang" / "srt" / "unrelated.py"
    other.write_text("def helper():\n    return 1\n")
    first = run(capsys, "fixtures/incident_buggy", "--show-unresolved")
    evaluations, parses = count_evaluations(monkeypatch), count_libcst_parses(monkeypatch)
    other.write_text("def helper():\n    return 2  # edited\n")
    again = run(capsys, "fixtures/incident_buggy", "--show-unresolved")
    assert (evaluations, parses) == ([], [])  # nothing evaluated, nothing parsed by libcst
    assert again == first
    # a new class in it changes what the pre-filter sees: parsed, but nothing re-evaluated
    other.write_text(
        "class Helper:\n    def __init__(self, size, layer_num):\n        self.size = size\n"
    )
    changed = run(capsys, "fixtures/incident_buggy", "--show-unresolved")
    assert parses and evaluations == ["fixtures/incident_buggy/sglang/srt/unrelated.py"]
    assert changed == run(capsys, "fixtures/incident_buggy", "--show-unresolved", "--no-cache")


def test_editing_one_pool_re_evaluates_only_what_read_it(project, capsys, monkeypatch):
    evaluations = count_evaluations(monkeypatch)
    reference = run(capsys, "fixtures", "--output-format", "json")
    cold = list(evaluations)
    evaluations.clear()
    host = project / "fixtures" / "incident_buggy" / "sglang" / "srt" / "mem_cache"
    host = host / "memory_pool_host.py"
    host.write_text(host.read_text() + "\n# edited\n")
    again = run(capsys, "fixtures", "--output-format", "json")
    assert any(path.startswith("fixtures/incident_buggy/") for path in evaluations)
    # evaluations of other trees come from the cache: at construction sites and declared
    # hosts too
    assert all(path.startswith("fixtures/incident_buggy/") for path in evaluations), evaluations
    assert any(path.startswith("fixtures/dsa_declared_buggy/") for path in cold)
    assert len(evaluations) < len(cold)
    assert again == reference


def test_editing_a_call_site_re_evaluates_only_the_evaluations_at_it(project, capsys, monkeypatch):
    """A module constant read by a host's argument at a construction site changes, the call
    itself does not: the site's module is part of what its evaluation read."""
    tree = project / "fixtures" / "forgotten_override_buggy" / "sglang" / "srt" / "mem_cache"
    offload = tree / "decode_offload.py"
    text = offload.read_text()
    call = "        server_args.hicache_mem_layout,\n    )"
    assert call in text
    offload.write_text(
        text.replace(
            call,
            "        server_args.hicache_mem_layout,\n        override_kv_cache_dim=ROW,\n    )",
        )
        + "\n\nROW = 576\n"
    )
    sites: list[str] = []
    evaluations = count_evaluations(monkeypatch, sites)
    first = run(capsys, "fixtures", "--output-format", "json")
    cold_sites = list(sites)
    assert first == run(capsys, "fixtures", "--output-format", "json", "--no-cache")
    evaluations.clear()
    sites.clear()
    offload.write_text(offload.read_text().replace("ROW = 576", "ROW = 656"))
    again = run(capsys, "fixtures", "--output-format", "json")
    shown = "fixtures/forgotten_override_buggy/sglang/srt/mem_cache/decode_offload.py"
    assert sites and set(sites) == {shown}, sites  # only the evaluations at that call
    assert len(evaluations) == len(sites)  # nothing else: no pool file changed
    assert any(path != shown for path in cold_sites)  # other sites' evaluations were reused
    assert again != first  # the edit changes the findings ...
    evaluations.clear()
    assert again == run(capsys, "fixtures", "--output-format", "json", "--no-cache")


def read_entry(path: Path) -> dict:
    return json.loads(path.read_bytes().partition(b"\n")[2])


def write_entry(path: Path, entry: dict, seal=auditor.incremental.cache._seal) -> None:
    """An entry as this user's runs write it (sealed with their secret), unless `seal` says
    otherwise."""
    body = json.dumps(entry).encode()
    path.write_bytes(seal(body) + b"\n" + body)


def damage(path: Path, how: str) -> None:
    """Damage of every kind; the well-formed kinds are sealed with this user's own secret, so
    that it is the validation of the entry, not its seal, that must catch them."""
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    elif how == "garbage":
        path.write_bytes(os.urandom(300) + b"\xff\xfe\x00")
    elif how == "wrong-shape":
        entry = read_entry(path)
        entry["value"] = [1, {"$data": "auditor.result:AuditResult", "fields": {}}, "x"]
        write_entry(path, entry)
    elif how == "missing-field":
        text = path.read_bytes().partition(b"\n")[2].decode()
        renamed = text.replace('"findings":', '"findings_renamed":', 1)
        renamed = renamed.replace('"bytes_per_token_per_layer":', '"bytes_per_token":', 1)
        write_entry(path, json.loads(renamed))
    elif how == "foreign-class":
        text = path.read_bytes().partition(b"\n")[2].decode()
        write_entry(path, json.loads(text.replace('"auditor.', '"subprocess.')))
    elif how == "other-version":
        entry = read_entry(path)
        entry["tool"] = "0" * 64
        write_entry(path, entry)
    elif how == "unsealed":
        write_entry(path, read_entry(path), seal=lambda body: b"0" * 64)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "directory":
        path.unlink()
        path.mkdir()
    else:
        raise AssertionError(how)


@pytest.mark.parametrize(
    "how",
    [
        "truncated",
        "garbage",
        "wrong-shape",
        "missing-field",
        "foreign-class",
        "other-version",
        "unsealed",
        "empty",
        "directory",
    ],
)
def test_a_damaged_cache_gives_the_no_cache_result(project, capsys, how):
    reference = reference_views(capsys)
    all_views(capsys)  # fill the cache
    damaged = entries(project)
    assert len(damaged) > 3
    for path in damaged:
        damage(path, how)
    assert without_cache_notice(all_views(capsys)) == reference
    assert without_cache_notice(all_views(capsys)) == reference  # and what it wrote back too


def test_a_planted_clean_result_under_another_key_hides_nothing(project, capsys):
    """A result claiming "no findings", copied over the buggy incident's entry (a pull request
    could ship one): its inner key is not the buggy tree's, so it is ignored."""
    buggy, fixed = "fixtures/incident_buggy", "fixtures/incident_fixed"
    reference = run(capsys, buggy, "--output-format", "json", "--no-cache")
    assert reference[0] == 1
    run(capsys, buggy, "--output-format", "json")
    buggy_entries = set(entries(project))
    assert run(capsys, fixed, "--output-format", "json")[0] == 0
    fixed_entries = [p for p in entries(project) if p not in buggy_entries]
    clean_result = next(p for p in fixed_entries if p.parent.name == "results")
    for path in buggy_entries:
        if path.parent.name == clean_result.parent.name:
            shutil.copyfile(clean_result, path)
    assert run(capsys, buggy, "--output-format", "json") == reference


def test_a_forged_result_under_the_right_key_hides_nothing(project, capsys):
    """The same, with the inner key rewritten to the buggy tree's: only the seal (an HMAC with
    a secret kept outside the project) tells it from a genuine entry, and it fails."""
    buggy, fixed = "fixtures/incident_buggy", "fixtures/incident_fixed"
    reference = run(capsys, buggy, "--output-format", "json", "--no-cache")
    run(capsys, buggy, "--output-format", "json")
    buggy_result = next(p for p in entries(project) if p.parent.name == "results")
    run(capsys, fixed, "--output-format", "json")
    fixed_result = next(
        p for p in entries(project) if p.parent.name == "results" and p != buggy_result
    )
    forged = read_entry(fixed_result)
    forged["key"] = read_entry(buggy_result)["key"]
    # the buggy tree's own record of what it read: every check but the seal passes
    forged["value"]["read"] = read_entry(buggy_result)["value"]["read"]
    other_secret = hmac_with(b"a stranger's secret")
    write_entry(buggy_result, forged, seal=other_secret)
    assert run(capsys, buggy, "--output-format", "json") == reference
    # the seal is what stands between: sealed with this user's own secret it would be believed
    write_entry(buggy_result, forged)
    assert run(capsys, buggy, "--output-format", "json")[0] == 0


def hmac_with(secret: bytes):
    import hashlib
    import hmac

    return lambda body: hmac.new(secret, body, hashlib.sha256).hexdigest().encode()


def test_two_runs_at_once_on_the_same_tree(project):
    command = [sys.executable, "-m", "auditor", "--isolated", "fixtures", "--output-format", "json"]
    reference = subprocess.run([*command, "--no-cache"], capture_output=True, cwd=project)
    children = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project)
        for _ in range(2)
    ]
    outputs = [child.communicate() for child in children]
    for child, (out, _) in zip(children, outputs):
        assert child.returncode == reference.returncode == 1
        assert out == reference.stdout
    warm = subprocess.run(command, capture_output=True, cwd=project)
    assert (warm.returncode, warm.stdout) == (1, reference.stdout)


def test_an_unwritable_cache_folder_still_audits(project, capsys):
    reference = run(capsys, "fixtures", "--output-format", "json", "--no-cache")
    cache_dir(project).write_text("not a folder")  # every write fails
    code, out, err = run(capsys, "fixtures", "--output-format", "json")
    assert (code, out) == reference[:2]
    # one notice line says why every run starts cold, then the same as without the cache
    notice, rest = err.split("\n", 1)
    assert notice.startswith("layout-audit: notice: cannot write the cache at "), notice
    assert rest == reference[2]


def test_clean_removes_the_cache(project, capsys):
    run(capsys, "fixtures/incident_buggy")
    assert cache_dir(project).is_dir()
    assert main(["clean"]) == 0
    assert "removed" in capsys.readouterr().out
    assert not cache_dir(project).exists()
    run(capsys, "fixtures/incident_buggy")
    assert main(["--clean-cache"]) == 0
    assert not cache_dir(project).exists()


def test_a_path_named_clean_is_audited_not_taken_for_the_command(project, capsys):
    shutil.copytree(project / "fixtures" / "incident_buggy", project / "clean")
    code, out, _ = run(capsys, "clean")
    assert code == 1 and "LA001" in out
    assert cache_dir(project).is_dir()  # the audit ran (and cached), nothing was removed


def test_only_a_cache_folder_is_removed(tmp_path):
    victim = tmp_path / "precious"
    victim.mkdir()
    assert auditor.incremental.cache.clean(victim) is False
    assert victim.is_dir()


def every_report(result, settings, summary: Path) -> dict[str, str]:
    """Every format and view a result is rendered in, as text."""
    import io

    from auditor.cli import show_pools
    from auditor.report import github, json_report, sarif, table, text

    outputs: dict[str, str] = {}

    def render(name, write) -> None:
        out = io.StringIO()
        write(out)
        outputs[name] = out.getvalue()

    render("text", lambda out: text.render(result, out, out, show_unresolved=True))
    render("pairs", lambda out: text.render_pairs(result, out))
    render("json", lambda out: json_report.render(result, out, show_pairs=True))
    render("github", lambda out: github.render(result, out, summary_path=summary))
    outputs["github summary"] = summary.read_text()
    render("sarif", lambda out: sarif.render(result, out))
    grids = table.build(result, settings)
    render("table", lambda out: table.render_text(grids, out))
    render("html", lambda out: table.render_html(grids, out))
    render("pools", lambda out: show_pools(result, out))
    return outputs


def test_round_trip_renders_every_report_byte_for_byte(project):
    """dump/load on a real result: every report the same, one stand-in per class, and sites
    kept as the same type without their syntax (no syntax tree, no index), keyed the same."""
    from auditor.pairing.sites import ConstructionSite
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    settings = load_settings(None)
    result = audit([project / "fixtures"], settings)
    assert any(pair.site is not None for pair in result.catalog.pairs)  # sites are exercised
    stored = json.loads(json.dumps(dump(result)))
    loaded = load(stored)
    before = every_report(result, settings, project / "summary-live.md")
    after = every_report(loaded, settings, project / "summary-loaded.md")
    assert "pairing_evidence" in before["json"] and "call site" in before["pairs"]
    assert set(before) == set(after)
    for name in before:
        assert after[name] == before[name], name
    assert loaded.catalog.sites and all(type(s) is ConstructionSite for s in loaded.catalog.sites)
    assert all(s.module is None and s.call is None for s in loaded.catalog.sites)
    assert [s.signature() for s in loaded.catalog.sites] == [
        s.signature() for s in result.catalog.sites
    ]
    assert [s.key() for s in loaded.catalog.sites] == [s.key() for s in result.catalog.sites]
    hosts = {id(pair.host) for pair in loaded.catalog.pairs}
    assert {id(e.host) for e in loaded.evaluations if e.host is not None} <= hosts
    assert "libcst" not in json.dumps(stored)


def test_dtypes_read_back_without_facts_are_the_same_values(monkeypatch):
    """A stored dtype reads back as the interpreter's own value, without asking torch (a warm
    run reads no facts); once facts are known, a name this torch lacks is not a valid entry."""
    import torch

    from auditor import dtypes
    from auditor.dtypes import TorchDtype, dtype_name, is_dtype

    monkeypatch.setattr(dtypes, "_state", {})
    monkeypatch.setattr(dtypes, "start_reading", lambda cache=None: pytest.fail("read facts"))
    stored = json.loads(json.dumps(dump([TorchDtype("bfloat16")])))
    (back,) = load(stored)
    assert back is TorchDtype("bfloat16") and is_dtype(back) and dtype_name(back) == "bfloat16"
    assert back == torch.bfloat16 and back != torch.float16
    assert str(back) == str(torch.bfloat16)
    monkeypatch.setattr(dtypes, "_state", {"facts": dtypes.read_facts(torch)})
    with pytest.raises(auditor.incremental.cache.InvalidEntry):
        load(json.loads(json.dumps(stored).replace("bfloat16", "float9")))


def test_values_json_cannot_hold_are_not_cached():
    with pytest.raises(auditor.incremental.cache.NotCacheable):
        dump(object())
    with pytest.raises(auditor.incremental.cache.NotCacheable):
        dump({"x": b"bytes"})


def test_a_disabled_cache_finds_and_writes_nothing(tmp_path):
    cache = Cache(None)
    cache.put("results", "k", {"x": 1})
    assert cache.get("results", "k") is None
    assert list(tmp_path.iterdir()) == []


def test_the_secret_is_private_and_outside_the_project(project, capsys):
    run(capsys, "fixtures/incident_buggy")
    secret = Path(os.environ["XDG_CACHE_HOME"]) / "layout-audit" / "secret"
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_bytes()) == 32
    assert not list(project.rglob("secret"))


def test_no_place_for_a_secret_still_audits(project, capsys, monkeypatch):
    blocked = project / "blocked"
    blocked.write_text("a file where the cache home folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    auditor.incremental.cache._secret.cache_clear()
    reference = run(capsys, "fixtures", "--output-format", "json", "--no-cache")
    assert run(capsys, "fixtures", "--output-format", "json") == reference
    auditor.incremental.cache._secret.cache_clear()  # a new process: a new secret, old entries unproven
    assert run(capsys, "fixtures", "--output-format", "json") == reference


def test_old_entries_are_pruned(project, capsys, monkeypatch):
    monkeypatch.setattr(auditor.incremental.cache, "MAX_ENTRIES", 2)
    helper = project / "fixtures" / "incident_buggy" / "sglang" / "srt" / "helper.py"
    for edit in range(4):  # a new class each time, one the pre-filter keeps: a new result key
        helper.write_text(f"class Edit{edit}:\n    def __init__(self, layer_num):\n        pass\n")
        run(capsys, "fixtures/incident_buggy")
    assert len(list((cache_dir(project) / "results").glob("*.json"))) == 2


def test_a_file_newly_naming_a_host_class_is_read_again(project, capsys, monkeypatch):
    """Pairing searches every file's bytes for host class names (construction sites): a file
    that starts naming one, with no class of its own changing, must not reuse the result."""
    other = project / "fixtures" / "incident_buggy" / "sglang" / "srt" / "unrelated.py"
    other.write_text("def helper():\n    return 1\n")
    run(capsys, "fixtures/incident_buggy", "--output-format", "json")
    parses = count_libcst_parses(monkeypatch)
    other.write_text(
        "from sglang.srt.mem_cache.memory_pool_host import MLATokenToKVPoolHost\n\n\n"
        "def build(device_pool):\n    return MLATokenToKVPoolHost(device_pool, 2.0, 0, 1)\n"
    )
    again = run(capsys, "fixtures/incident_buggy", "--output-format", "json")
    assert parses, "the stored result was reused although a file now names the host class"
    assert again == run(capsys, "fixtures/incident_buggy", "--output-format", "json", "--no-cache")


def test_a_file_naming_a_class_pairing_never_sought_reuses_the_result(project, capsys, monkeypatch):
    """HostKVCache takes a device pool but is abstract: pairing never searches for it, so a
    file libcst did not parse may start naming it without the stored result being refused."""
    other = project / "fixtures" / "incident_buggy" / "sglang" / "srt" / "unrelated.py"
    other.write_text("def helper():\n    return 1\n")
    first = run(capsys, "fixtures/incident_buggy", "--show-pairs")
    evaluations, parses = count_evaluations(monkeypatch), count_libcst_parses(monkeypatch)
    other.write_text("def helper():\n    return 'HostKVCache'\n")
    assert run(capsys, "fixtures/incident_buggy", "--show-pairs") == first
    assert (evaluations, parses) == ([], [])
    other.write_text("def helper():\n    return 'MLATokenToKVPoolHost'\n")  # one it sought
    assert run(capsys, "fixtures/incident_buggy", "--show-pairs") == first
    assert parses  # read again: the file may have held a construction site


def test_a_file_newly_building_a_record_host_is_read_again(project, capsys):
    """A host taking the device pool's buffer record (not the pool) is sought too."""
    tree = "fixtures/buffer_info_buggy"
    other = project / tree / "sglang" / "srt" / "mem_cache" / "offload.py"
    other.write_text("def helper():\n    return 1\n")
    first = run(capsys, tree, "--show-pairs", "--show-unresolved")
    other.write_text(
        "from sglang.srt.mem_cache.memory_pool_host import MHATokenToKVPoolHost\n\n\n"
        "def build(kv_pool, ratio):\n"
        "    info = kv_pool.get_buffer_info()\n"
        "    return MHATokenToKVPoolHost(info, ratio, 1, device_capacity_tokens=64)\n"
    )
    again = run(capsys, tree, "--show-pairs", "--show-unresolved")
    assert again != first  # the new call shows in the pairs
    assert again == run(capsys, tree, "--show-pairs", "--show-unresolved", "--no-cache")


# ---- the stat manifest: files unchanged by size, time and inode are not even read ----------


def age_every_file(root: Path, seconds: int = 60) -> None:
    """Modification times in the past: files this new are too racy to trust (RACY_NANOSECONDS)."""
    past = time.time() - seconds
    for path in root.rglob("*.py"):
        os.utime(path, (past, past))


def count_reads(monkeypatch) -> list[str]:
    reads: list[str] = []
    real = auditor.pipeline.read_file

    def read(source):
        reads.append(str(source.path))
        return real(source)

    monkeypatch.setattr(auditor.pipeline, "read_file", read)
    return reads


def test_files_unchanged_on_disk_are_not_read_again(project, capsys, monkeypatch):
    tree = "fixtures/incident_buggy"
    age_every_file(project / tree)
    first = run(capsys, tree, "--output-format", "json")
    reads = count_reads(monkeypatch)
    assert run(capsys, tree, "--output-format", "json") == first
    assert reads == [], "a run with every file unchanged on disk read files"
    assert list((cache_dir(project) / "manifests").glob("*.json"))
    # an edit (new size and time) goes back to reading and hashing every file
    host = project / tree / "sglang" / "srt" / "mem_cache" / "memory_pool_host.py"
    host.write_text(host.read_text().replace("* 4", "* 8", 1))
    age_every_file(project / tree, seconds=30)
    edited = run(capsys, tree, "--output-format", "json")
    assert reads and edited != first
    assert edited == run(capsys, tree, "--output-format", "json", "--no-cache")


def test_no_manifest_while_a_file_is_racy(project, capsys):
    """A file modified in the last two seconds could change again within the same clock tick
    of the file system with its size and time unchanged: its stat is not trusted yet."""
    tree = project / "fixtures" / "incident_buggy"
    age_every_file(tree)
    (tree / "sglang" / "srt" / "new.py").write_text("x = 1\n")  # written just now
    run(capsys, "fixtures/incident_buggy")
    assert not list((cache_dir(project) / "manifests").glob("*.json"))
    age_every_file(tree)  # the same tree, every file old enough: trusted
    run(capsys, "fixtures/incident_buggy")
    assert list((cache_dir(project) / "manifests").glob("*.json"))


def test_a_forged_manifest_is_ignored(project, capsys):
    tree = "fixtures/incident_buggy"
    age_every_file(project / tree)
    honest = run(capsys, tree, "--output-format", "json", "--no-cache")
    run(capsys, tree, "--output-format", "json")
    for path in (cache_dir(project) / "manifests").glob("*.json"):
        path.write_text('{"result": "0000"}')  # no seal: must be ignored, not trusted
    assert run(capsys, tree, "--output-format", "json") == honest


def test_a_file_that_cannot_be_stated_means_no_manifest(tmp_path):
    from auditor.frontend.discover import SourceFile

    path = tmp_path / "gone.py"
    path.write_text("x = 1\n")
    old = time.time() - 60
    os.utime(path, (old, old))
    source = SourceFile(path, tmp_path, "gone")
    assert auditor.incremental.results.manifest_key([source], [], ("k",)) is not None
    path.unlink()  # deleted between discovery and the stat
    assert auditor.incremental.results.manifest_key([source], [], ("k",)) is None


def test_a_manifest_never_leads_outside_the_cache(project, capsys, monkeypatch):
    """A result key read from a manifest is a hash, checked before use as a file name (even a
    sealed entry: the check does not depend on who wrote it)."""
    tree = "fixtures/incident_buggy"
    age_every_file(project / tree)
    honest = run(capsys, tree, "--output-format", "json", "--no-cache")
    run(capsys, tree, "--output-format", "json")
    cache = Cache(cache_dir(project))
    for path in (cache_dir(project) / "manifests").glob("*.json"):
        cache.put("manifests", path.stem, {"result": "../manifests/" + path.stem})
    asked: list[str] = []
    real_get = Cache.get

    def get(self, kind, key):
        asked.append(key)
        return real_get(self, kind, key)

    monkeypatch.setattr(Cache, "get", get)
    assert run(capsys, tree, "--output-format", "json") == honest
    assert not any("/" in key for key in asked), asked
