"""Build the auditor's stages on small synthetic source trees written into a temporary folder."""

from __future__ import annotations

import importlib
import importlib.util
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auditor import dtypes
from auditor.evaluation.matrix import parameter_names
from auditor.frontend.discover import discover
from auditor.frontend.index import ClassInfo, ProjectIndex
from auditor.frontend.parse import FileError, parse_file
from auditor.interpret.machine import ConfigPoint, Interpreter
from auditor.interpret.values import ConfigDependency, Instance, MemberName, Tensor, Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.location import Location
from auditor.settings import Settings

# A comment that makes the pre-filter (auditor/frontend/prefilter.py) keep a file, so CPython's check runs
# on it up front: files that can hold neither a pool nor a suppression are read only if needed.
READ_BY_THE_AUDIT = "\n# layout-audit reads this file\n"


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `{relative path: source}` below `root` (sources are dedented); return `root`."""
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"))
    return root


def build_index(root: Path, files: dict[str, str]) -> ProjectIndex:
    """Stages 1-3 on a synthetic tree; every file must parse."""
    write_tree(root, files)
    sources, problems = discover([root])
    assert problems == []
    parsed = []
    for source in sources:
        outcome = parse_file(source, str(source.path.relative_to(root)))
        assert not isinstance(outcome, FileError), outcome
        parsed.append(outcome)
    return ProjectIndex(parsed)


def find_class(index: ProjectIndex, name: str) -> ClassInfo:
    matches = [cls for cls in index.all_classes() if cls.name == name]
    assert len(matches) == 1, f"{name}: {matches}"
    return matches[0]


@dataclass
class Built:
    """An instance built by the interpreter, with the config point it read from."""

    instance: Instance
    point: ConfigPoint
    interpreter: Interpreter

    def __getitem__(self, name: str) -> Any:
        return self.instance.attrs[name]

    def attr(self, name: str) -> Any:
        """An attribute as audited code would read it (instance, then class, then property)."""
        return self.interpreter.get_attribute(self.instance, name, Location("<test>", 1))


def build(
    index: ProjectIndex,
    class_name: str,
    values: dict[str, Any] | None = None,
    kwargs: dict[str, Any] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Built:
    """Instantiate a class as evaluate.py does: constructor parameters named in `values` are
    bound to lazily read config values; others take their defaults (or `kwargs`)."""
    cls = find_class(index, class_name)
    values = ours(values or {})
    arguments: dict[str, Any] = {
        name: ConfigDependency(name) for name in parameter_names(cls) if name in values
    }
    arguments.update(kwargs or {})
    point = ConfigPoint(values)
    interpreter = Interpreter(index, point, limits)
    instance = interpreter.instantiate(cls, [], arguments, cls.location)
    return Built(instance, point, interpreter)


def module_value(
    index: ProjectIndex,
    module: str,
    name: str,
    values: dict[str, Any] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Any:
    """The value of a module-level name, as audited code importing it would see it."""
    interpreter = Interpreter(index, ConfigPoint(ours(values or {})), limits)
    return interpreter.module_attribute(index.modules[module], name, Location("<test>", 1))


def evaluate(root: Path, expression: str, prelude: str = "", limits: Limits = DEFAULT_LIMITS):
    """Evaluate one expression at module level of a throwaway module `m` (after `prelude`)."""
    source = textwrap.dedent(prelude) + f"\nRESULT = {expression}\n"
    index = build_index(root, {"m.py": source})
    return module_value(index, "m", "RESULT", limits=limits)


def nbytes(value: Any) -> int:
    """Total bytes of a tensor or a (per-layer) list of tensors."""
    if isinstance(value, Tensor):
        return value.nbytes
    assert isinstance(value, list) and value, value
    assert all(isinstance(t, Tensor) for t in value), value
    return sum(t.nbytes for t in value)


def assert_unknown(value: Any, *words: str) -> Unknown:
    """`value` is Unknown, carries a location and its reason mentions each of `words`."""
    assert isinstance(value, Unknown), f"expected Unknown, got {value!r}"
    assert value.reason
    for word in words:
        assert word in value.reason, f"{word!r} not in {value.reason!r}"
    return value


def settings(**overrides: Any) -> Settings:
    """Small settings for synthetic pools: `size` tokens and `layer_num` layers."""
    base = Settings(
        token_params=["size"],
        layer_params=["layer_num"],
        device_pool_params=["device_pool"],
        token_counts=(100, 300),
        layer_counts=(2, 5),
    )
    for key, value in overrides.items():
        setattr(base, key, value)
    return base


def real_torch(value: object) -> object:
    """The auditor's dtype value (facts read from torch by a child process, auditor/dtypes.py) as
    the real torch dtype that a fixture's code, run for real by an oracle test, needs; an enum
    member the auditor names (MemberName) as the fixture's real member (its package imported)."""
    if type(value) is MemberName:
        kind, member = value.text.split(".")
        return getattr(getattr(importlib.import_module(value.module), kind), member)
    if not dtypes.is_dtype(value) or dtypes.is_torch_dtype(value):
        return value
    return getattr(dtypes.torch_module(), dtypes.dtype_name(value))


def real_values(values: dict[str, Any]) -> dict[str, Any]:
    """A config point's values with every dtype made a real torch dtype."""
    return {name: real_torch(value) for name, value in values.items()}


def ours(values: dict[str, Any]) -> dict[str, Any]:
    """Config values as the auditor holds them: a real torch dtype (tests write them so) made
    the interpreter's dtype value of that name (auditor/dtypes.py)."""
    return {name: dtypes.from_torch(value) for name, value in values.items()}


def our_dtype(real: Any) -> Any:
    """The interpreter's dtype value for a real torch dtype: `is`-comparable with its results."""
    return dtypes.from_torch(real)


def audit_tree(root: Path) -> Any:
    """The whole audit of a tree with the default pack, .gitignore not consulted."""
    return settings_and_audit(root)[1]


def settings_and_audit(root: Path, **overrides: Any) -> tuple[Settings, Any]:
    """The default pack's settings (with `overrides` set on them) and the whole audit of a
    tree under them, .gitignore not consulted: an oracle test reads the counts it built at."""
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    settings = load_settings(None)
    settings.respect_gitignore = False
    for name, value in overrides.items():
        setattr(settings, name, value)
    return settings, audit([root], settings)


def every_report(result: Any) -> str:
    """Everything an audit prints (text, pairs, unresolved items, JSON with pairs), its time left
    out: two audits that must read the same compare this."""
    import io

    from auditor.report import json_report
    from auditor.report.text import render, render_pairs, render_unresolved

    out, err = io.StringIO(), io.StringIO()
    render(result, out, err, True)
    render_pairs(result, out)
    render_unresolved(result, out)
    json_report.render(result, out, show_pairs=True)
    return out.getvalue() + err.getvalue().rsplit("(", 1)[0]  # the time differs


def import_file(path: Path, name: str) -> Any:
    """A fixture module run for real (an oracle), imported from its file under `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def real_bytes_per_token_per_layer(
    totals: dict[tuple[int, int], tuple[int, int]], settings: Settings
) -> int:
    """What measure.py derives, from real pools: `totals[tokens, layers]` = (the pool's token
    count, its bytes) at the audit's two token and two layer counts."""
    (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
    (s11, b11), (s21, b21) = totals[t1, l1], totals[t2, l1]
    b12, b22 = totals[t1, l2][1], totals[t2, l2][1]
    return (b22 - b12 - b21 + b11) // ((s21 - s11) * (l2 - l1))


def audit_json(root: Path, capsys: Any) -> dict:
    """The zero-configuration audit of `root` as its JSON report, with the exit code."""
    import json

    from auditor.cli import main

    code = main([str(root), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def built_by_the_tree(
    root: Path, monkeypatch: Any, package: str, module: str, function: str, **kwargs
):
    """The tree's own construction function, run on the meta device (the oracle); its modules
    are dropped from `sys.modules` before and after, so each tree imports its own."""
    import sys

    monkeypatch.syspath_prepend(str(root))
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    result = getattr(importlib.import_module(f"{package}.{module}"), function)(**kwargs)
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    return result


def tree_modules(root: Path, monkeypatch: Any, package: str, *names: str) -> list:
    """The tree's own modules `package.<name>`, imported for real (the oracle): whatever of
    `package` an earlier tree left in `sys.modules` is dropped first, so each tree imports
    its own (monkeypatch puts `sys.path` and `sys.modules` back after the test)."""
    import sys

    monkeypatch.syspath_prepend(str(root))
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    return [importlib.import_module(f"{package}.{name}") for name in names]


def built_from_its_config(
    root: Path, monkeypatch: Any, package: str, module: str, function: str, config: str, **fields
):
    """The tree's construction function given its config class's defaults with `fields`
    replaced (its devices the meta device): `function(replace(Config(), **fields))`."""
    import sys
    from dataclasses import replace

    monkeypatch.syspath_prepend(str(root))
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    found = importlib.import_module(f"{package}.{module}")
    result = getattr(found, function)(replace(getattr(found, config)(), **fields))
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    return result


def one_pair_verdict(report: dict) -> set[tuple[str, str]]:
    """(code, buffer) of each finding of a report that compared its one pair, resolved."""
    summary = report["summary"]
    assert summary["pairs"] == summary["pairs_compared"] == 1 and summary["unresolved"] == 0
    return {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}


def finding_figures(report: dict) -> dict[str, tuple[int, int]]:
    """buffer -> (first figure, second figure) of each finding of a report, in B/token/layer
    (the other side's and the device's, as LA001 says them)."""
    import re

    found = {}
    for finding in report["findings"]:
        name, _, rest = finding["message"].partition(":")
        numbers = re.findall(r"(\d+) B/token/layer vs (\d+) B/token/layer", rest)
        found[name] = tuple(int(n) for n in numbers[0])
    return found


def check_review_tree(root: Path, expected: tuple, capsys: Any) -> None:
    """A review's tree audited with no configuration: its findings as (code, buffer), pairs,
    pairs compared, at most so many config points, and unresolved items, as expected."""
    import json

    from auditor.cli import main

    main([str(root), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    findings, pairs, compared, most_points, unresolved = expected
    assert {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]} == findings
    summary = report["summary"]
    assert (summary["pairs"], summary["pairs_compared"]) == (pairs, compared)
    assert summary["config_points"] <= most_points
    assert summary["unresolved"] == unresolved
