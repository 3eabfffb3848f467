"""Engines are plugins: each module of auditor/engines registers what its engine's code calls
things, and no other module of the auditor knows an engine's names."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from helpers import write_tree

import auditor.engines
from auditor.engines import Engine, HostDeclarations, SizeClaim
from auditor.engines.base import Registry
from auditor.engines.sglang import SGLANG
from auditor.pipeline import audit
from auditor.settings import RULES_DIR, load_settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PACKAGE = Path(auditor.engines.__file__).resolve().parent.parent
GENERIC = {"build", "dtype", "bytes_per_token_per_layer"}  # words every engine may use


def test_engines_are_found_by_walking_the_package():
    assert [engine.name for engine in auditor.engines.active()] == ["sglang"]
    assert auditor.engines.default_packs() == ("sglang",)
    assert all((RULES_DIR / f"{e.rule_pack}.toml").is_file() for e in auditor.engines.active())


def test_an_engine_registers_once():
    registry = Registry()
    registry.add(SGLANG)
    with pytest.raises(ValueError, match="registered twice"):
        registry.add(SGLANG)


def _engine_words(engine: Engine) -> set[str]:
    words = {engine.name}
    for claim in engine.size_claims:
        words |= {claim.attribute, claim.method} - {None}
    for spec in engine.host_declarations:
        words |= set(vars(spec).values())
    pack = tomllib.loads((RULES_DIR / f"{engine.rule_pack}.toml").read_text())
    words |= set(pack["parameters"].get("device-pool", []))
    words |= set(pack["parameters"].get("buffer-info", []))
    return words - GENERIC


def _code_words(tree: ast.AST) -> set[str]:
    """Identifiers and the words of one-line string literals (not docstrings, not prose)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.arg):
            words.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            words.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            words.add(node.name)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and "\n" not in node.value
        ):
            words.update(re.findall(r"\w+", node.value))
    return words


def test_no_engine_name_outside_its_engine_module():
    """SGLang's names (and its pack's) live in engines/sglang.py and rules/sglang.toml only."""
    for engine in auditor.engines.active():
        own = PACKAGE / "engines" / f"{engine.name}.py"
        names = _engine_words(engine)
        for path in sorted(PACKAGE.rglob("*.py")):
            if path == own:
                continue
            found = _code_words(ast.parse(path.read_text(encoding="utf-8"))) & names
            assert not found, f"{path.relative_to(PACKAGE.parent)} uses {engine.name}'s {found}"


def test_the_name_check_can_fail():
    assert {"sglang", "host_pool_decls", "device_pool", "size_per_token"} <= _engine_words(SGLANG)
    words = _code_words(ast.parse('"""sglang"""\nx = pool.device_pool\ny = "host_pool_decls()"'))
    assert {"device_pool", "host_pool_decls"} <= words and "sglang" not in words


HOST = """
import torch

class Dev:
    def __init__(self, size, layer_num):
        self.k_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]

class Host:
    def __init__(self, device_pool, size, layer_num):
        self.k_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]
        self.row_bytes = 32 * layer_num

def build(dev: Dev):
    return Host(dev, 8, 2)
"""


def test_a_second_engine_adds_its_size_claim(tmp_path, monkeypatch):
    """A new engine is data: its size claim is read off hosts like SGLang's."""
    write_tree(tmp_path, {"pool.py": HOST})
    settings = load_settings(None)
    assert not [f for f in audit([tmp_path], settings).findings if f.code == "LA002"]
    other = Engine(name="other", rule_pack="sglang", size_claims=(SizeClaim("row_bytes"),))
    monkeypatch.setattr(auditor.engines, "active", lambda: (SGLANG, other))
    found = [f for f in audit([tmp_path], settings).findings if f.code == "LA002"]
    assert len(found) == 1 and "row_bytes" in found[0].message, found


def test_host_declarations_are_read_with_the_engine_names():
    spec = SGLANG.host_declarations[0]
    assert isinstance(spec, HostDeclarations) and spec.method == "host_pool_decls"
