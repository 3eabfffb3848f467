"""The fast paths of a whole-tree audit give the results of the slow ones.

Only files that may define a pool class are parsed with libcst up front; any other module is
parsed when a name resolution first needs it. Positions are computed for a module on the first
read of one of its locations. torch is never imported here: a child reads its dtype facts,
only when a pool may need them.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import build_index, find_class, write_tree

import auditor.frontend.prefilter
import auditor.incremental.evaluations
import auditor.incremental.results
import auditor.pipeline
from auditor.frontend.discover import SourceFile, discover
from auditor.frontend.parse import ParsedModule, on_fresh_stack, parse_file
from auditor.frontend.prefilter import outline_rule, pool_words
from auditor.location import Location
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident_buggy"

DEVICE = """
    from pkg.rows import RowMaker


    class KVPool(RowMaker):
        def __init__(self, size, layer_num):
            self.size = size
            self.layer_num = layer_num
            self.k_buffer = [self.rows(size, 128) for _ in range(layer_num)]
"""
# no pool word in it: the pre-filter leaves it out, the base-class link brings it in
ROWS = """
    import torch


    class RowMaker:
        def rows(self, count, width):
            return torch.zeros((count + 1, width), dtype=torch.uint8)
"""
HOST = """
    import torch

    from pkg.device import KVPool


    class KVPoolHost:
        def __init__(self, device_pool: KVPool):
            self.k_buffer = [
                torch.zeros((device_pool.size + 1, 64), dtype=torch.uint8)
                for _ in range(device_pool.layer_num)
            ]
"""


def key(result) -> list:
    return [(f.code, str(f.location), f.message) for f in result.findings]


def unresolved(result) -> list:
    return [(u.subject, str(u.unknown.location), u.unknown.reason) for u in result.unresolved]


def every_module(parsed, words):
    return {id(module) for module in parsed}


def audit_both_ways(root: Path, monkeypatch: pytest.MonkeyPatch):
    """(pre-filtered audit, audit with every file checked by CPython and indexed up front)."""
    settings = load_settings(None)
    fast = audit([root], settings)
    with monkeypatch.context() as patched:
        patched.setattr(auditor.frontend.prefilter, "may_define_pools", lambda data, words: True)
        patched.setattr(auditor.pipeline, "outline_rule", every_module)
        slow = audit([root], settings)
    return fast, slow


def test_a_base_class_in_a_file_the_pre_filter_drops_is_indexed_on_demand(tmp_path, monkeypatch):
    root = write_tree(
        tmp_path / "tree",
        {
            "pkg/__init__.py": "",
            "pkg/device.py": DEVICE,
            "pkg/rows.py": ROWS,
            "pkg/host.py": HOST,
            "pkg/unrelated.py": "def helper(x):\n    return x + 1\n",
        },
    )
    fast, slow = audit_both_ways(root, monkeypatch)
    assert key(fast) == key(slow) and len(fast.findings) == 1
    finding = fast.findings[0]
    assert finding.code == "LA001" and "128 B/token/layer" in finding.message
    assert unresolved(fast) == unresolved(slow)
    assert (fast.files_found, fast.files_read) == (5, 5)
    # device.py and host.py up front, rows.py on demand; unrelated.py and __init__.py never
    assert fast.files_indexed == 3
    assert slow.files_indexed == 5


def test_a_pool_in_a_file_without_pool_words_is_still_found(tmp_path, monkeypatch):
    """The subclasses inherit the constructor: the file that derives from a pool (directly,
    through an `import ... as` alias, or through a package that re-exports it under another
    name) says neither `layer_num` nor `device_pool`, and is kept all the same."""
    root = write_tree(
        tmp_path / "tree",
        {
            "pkg/__init__.py": "from pkg.device import KVPool as ExportedPool\n",
            "pkg/device.py": DEVICE,
            "pkg/rows.py": ROWS,
            "pkg/derived.py": """
                from pkg.device import KVPool as Parent


                class WidePool(Parent):
                    pass


                class WiderPool(WidePool):
                    pass
            """,
            "pkg/other.py": """
                from pkg import ExportedPool


                class OtherPool(ExportedPool):
                    pass
            """,
            "pkg/plain.py": "class NotAPool:\n    def __init__(self, size):\n        pass\n",
        },
    )
    settings = load_settings(None)
    sources = {}
    for source in discover([root])[0]:
        sources[source.module] = parse_file(source, str(source.path))
    kept = outline_rule(list(sources.values()), pool_words(settings))
    assert {name.split(".")[-1] for name, module in sources.items() if id(module) in kept} == {
        "device",
        "derived",
        "other",
    }
    fast, slow = audit_both_ways(root, monkeypatch)
    names = sorted(device.name for device in fast.catalog.devices)
    assert names == ["KVPool", "OtherPool", "WidePool", "WiderPool"]
    assert names == sorted(device.name for device in slow.catalog.devices)
    assert [len(e.points) for e in fast.evaluations] == [len(e.points) for e in slow.evaluations]
    assert unresolved(fast) == unresolved(slow)


def test_a_suppression_comment_keeps_its_file(tmp_path, monkeypatch):
    """LA100 (unused suppression) needs every file with a suppression comment read."""
    root = write_tree(
        tmp_path / "tree",
        {"pkg/__init__.py": "", "pkg/notes.py": "x = 1  # layout-audit: ignore[LA001]\n"},
    )
    fast, slow = audit_both_ways(root, monkeypatch)
    assert [f.code for f in fast.findings] == ["LA100"] == [f.code for f in slow.findings]


def test_a_syntax_error_in_a_file_that_cannot_matter_is_not_read(tmp_path):
    """The pre-filter (prefilter.py) leaves such a file unparsed: the audit never reads it."""
    root = write_tree(tmp_path / "tree", {"ok.py": "x = 1\n", "bad.py": "def f(:\n    pass\n"})
    result = audit([root], load_settings(None))
    assert result.errors == [] and result.files_indexed == 0 and result.files_read == 2


def test_a_syntax_error_in_a_file_that_may_hold_a_pool_is_reported(tmp_path):
    bad = "class P:\n    def __init__(self, layer_num):\n        x = (\n"
    root = write_tree(tmp_path / "tree", {"ok.py": "x = 1\n", "bad.py": bad})
    result = audit([root], load_settings(None))
    assert [(e.line, e.column) for e in result.errors] == [(3, 13)]
    assert result.files_indexed == 0 and result.files_read == 1


def test_the_incident_fixture_gives_the_same_results_both_ways(monkeypatch):
    fast, slow = audit_both_ways(INCIDENT, monkeypatch)
    assert key(fast) == key(slow) and fast.findings
    assert unresolved(fast) == unresolved(slow)
    assert fast.files_indexed < slow.files_indexed == slow.files_read


# ---- lazy positions -----------------------------------------------------------------------


def parsed_module(tmp_path: Path, text: str) -> ParsedModule:
    path = tmp_path / "m.py"
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    module = parse_file(SourceFile(path, tmp_path, "m"), "m.py")
    assert isinstance(module, ParsedModule)
    return module


def test_positions_are_computed_on_the_first_read_of_a_location(tmp_path):
    module = parsed_module(tmp_path, "import torch\n\nclass Pool:\n    size = 1 + 2\n")
    assert not module.is_parsed and not module.has_positions
    pool = module.tree.body[1]
    location = module.location(pool.name)
    assert module.is_parsed and not module.has_positions
    exact = Location("m.py", 3, 7, 3, 11)
    assert location == exact and exact == location and hash(location) == hash(exact)
    assert module.has_positions
    assert str(location) == "m.py:3:7" and repr(location) == repr(exact)
    assert sorted([Location("m.py", 9, 1), location, Location("m.py", 1, 1)])[1] == exact
    assert {exact: "found"}[location] == "found"


def test_only_modules_that_report_a_location_get_positions(tmp_path, monkeypatch):
    root = write_tree(
        tmp_path / "tree",
        {
            "pkg/__init__.py": "",
            "pkg/device.py": "from pkg.consts import WIDTH\n"
            + textwrap.dedent(DEVICE).replace("128)", "WIDTH)"),
            "pkg/consts.py": "WIDTH = 2 ** 7\n",
            "pkg/rows.py": ROWS,
            "pkg/host.py": HOST,
        },
    )
    indexes = []
    real_index = auditor.incremental.evaluations.RecordingIndex

    def spy(*args, **kwargs):
        indexes.append(real_index(*args, **kwargs))
        return indexes[-1]

    monkeypatch.setattr(auditor.incremental.evaluations, "RecordingIndex", spy)
    result = audit([root], load_settings(None))
    assert [str(f.location) for f in result.findings] == [f"{root / 'pkg' / 'host.py'}:9:13"]
    modules = {Path(m.path).name: m.parsed for m in indexes[0].modules.values()}
    assert sorted(modules) == ["consts.py", "device.py", "host.py", "rows.py"]
    assert modules["host.py"].has_positions  # where the finding is
    assert not modules["consts.py"].has_positions  # evaluated, never reported


def test_a_location_first_read_deep_in_the_stack_still_resolves(tmp_path):
    """Positions recurse a few frames per nesting level; they are computed on a fresh stack,
    so reading a location from deep inside the interpreter gives what reading it first would."""
    nested = "x = " + "f(" * 40 + "1" + ")" * 40 + "\n"
    module = parsed_module(tmp_path, "y = 1\n" + nested)
    node = module.tree.body[1].body[0].value
    location = module.location(node)
    limit = sys.getrecursionlimit()

    def deep(levels: int) -> int:
        return deep(levels - 1) if levels else location.line

    assert deep(limit - 60) == 2
    assert on_fresh_stack(lambda: 7) == 7


# ---- no torch unless a pool needs it, and then in a child process --------------------------

CHECK_TORCH = """
import sys
from auditor import dtypes
from auditor.cli import main
started = []
real = dtypes.subprocess.Popen
def counting(command, *args, **kwargs):
    if "-I" in command:  # dtypes' child (not git, which discovery may ask)
        started.append(command)
    return real(command, *args, **kwargs)
dtypes.subprocess.Popen = counting
code = main(["--isolated", "--no-cache", sys.argv[1]])
print("facts read by a child:", len(started))
print("torch imported:", "torch" in sys.modules)
"""


def torch_imported(tree: Path) -> tuple[bool, int]:
    """(torch imported by the audit's process, children started to read its dtype facts)."""
    done = subprocess.run(
        [sys.executable, "-c", CHECK_TORCH, str(tree)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.strip().splitlines()
    return lines[-1] == "torch imported: True", int(lines[-2].rsplit(" ", 1)[-1])


def test_an_audit_without_pools_never_imports_torch(tmp_path):
    tree = write_tree(
        tmp_path / "tree",
        {
            "pkg/__init__.py": "",
            "pkg/helpers.py": """
                import torch


                def zeros(n):
                    return torch.zeros(n, dtype=torch.bfloat16)


                class NotAPool:
                    def __init__(self, size, dtype: torch.dtype = torch.float16):
                        self.buffer = torch.empty(size, dtype=dtype)
            """,
        },
    )
    assert torch_imported(tree) == (False, 0)
    # the console entry too, as `python -X importtime` sees it
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "auditor", "--isolated", str(tree)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "auditor.pipeline" in imported and "torch" not in imported


def test_an_audit_with_a_pool_reads_torch_in_a_child(tmp_path):
    """The check above can fail: a pool's dtypes come from torch itself, read by a child
    process while this one parses."""
    assert torch_imported(INCIDENT) == (False, 1)


def test_loading_settings_does_not_import_torch_and_reading_dtypes_asks_a_child(tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text(
        "[tool.layout-audit.dtypes]\ndefault = ['bfloat16']\n"
        "[tool.layout-audit.matrix]\nkv_dtype = ['torch.float8_e5m2', 'torch.uint8']\n"
    )
    script = f"""
import sys
from pathlib import Path
from auditor import dtypes
from auditor.settings import load_settings
settings = load_settings(Path({str(config)!r}))
print("after load:", "torch" in sys.modules)
print("dtypes:", settings.default_dtypes, settings.matrix["kv_dtype"])
print("after read:", "torch" in sys.modules, dtypes.facts_known())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.splitlines() == [
        "after load: False",
        "dtypes: [torch.bfloat16] [torch.float8_e5m2, torch.uint8]",
        "after read: False True",
    ]


def test_an_index_of_every_file_still_links_bases(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/device.py": DEVICE, "pkg/rows.py": ROWS}
    index = build_index(tmp_path, files)
    assert [base.name for base in find_class(index, "KVPool").bases] == ["RowMaker"]
