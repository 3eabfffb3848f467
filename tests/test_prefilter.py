"""The byte-level pre-filter (auditor/frontend/prefilter.py) keeps every file CPython's outline would.

The oracle is the outline rule itself (prefilter.outline_rule over files all checked by
CPython): on every fixture, the files it keeps must be among those the pre-filter checks.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from helpers import write_tree

import auditor.frontend.prefilter
from auditor.frontend.behaviour import per_layer_bytes
from auditor.frontend.discover import discover
from auditor.frontend.parse import parse_file
from auditor.frontend.prefilter import BaseNames, checked_facts, outline_rule, pool_words
from auditor.frontend.prefilter import may_define_pools as may_matter
from auditor.frontend.project import read_file
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
WORDS = [b"layer_num", b"device_pool"]


def source(text: str) -> bytes:
    return textwrap.dedent(text).lstrip("\n").encode()


@pytest.mark.parametrize(
    "text",
    [
        "class P:\n    def __init__(self, size, layer_num):\n        pass\n",
        """
        class P:
            def __init__(
                self,
                size: int = max(1, 2),
                layer_num: int = 1,
            ) -> None:
                pass
        """,
        "class H:\n    def __init__ (self, device_pool: 'P'): ...\n",
        "x = 1  # layout-audit: ignore[LA001]\n",
        "x = 1  # LAYOUT-AUDIT: IGNORE\n",
    ],
    ids=["one-line", "multi-line", "space-and-annotation", "suppression", "suppression-caps"],
)
def test_files_that_may_define_a_pool_are_kept(text):
    assert may_matter(source(text), WORDS)


@pytest.mark.parametrize(
    "text",
    [
        "class P:\n    def __init__(self, size):\n        self.layer_num = 3\n",
        "def build(layer_num):\n    return layer_num\n",
        "# layer_num\nclass P:\n    pass\n",
        "",
    ],
    ids=["word-outside-init", "no-init", "comment-only", "empty"],
)
def test_files_without_a_pool_parameter_are_left_out(text):
    assert not may_matter(source(text), WORDS)


@pytest.mark.parametrize(
    "text",
    [
        # a layer count read off a config dict, second: a token-major mirror
        'self.kv = torch.empty(\n    (tokens, cfg["num_layers"], heads, 2 * cfg["head_dim"]),\n)\n',
        'self.kv = torch.zeros((cfg["n_layers"], slots, heads, dim))\n',
        # made by a template tensor's method, four dimensions written out
        "self.k = proto.new_empty(n_layers, n_pages, heads, dim)\n",
        "self.k = like.new_zeros((self.num_layers, tokens, width))\n",
        # a dict of allocations over a table's items, unpacked (`name, (shape, dt)`)
        "self.t = {\n    n: torch.empty(s, dtype=d)\n    for n, (s, d) in table.items()\n}\n",
        # a flat byte region viewed as a dtype, then as a shape naming layers
        "self.kv = self.raw.view(spec.dtype).view(\n    n_blocks, spec.num_layers, 2, width\n)\n",
        # a shape written one dimension a line
        "shape = (\n    opts.num_layers,\n    opts.num_pages,\n)\n",
        # an allocator bound by `functools.partial`
        "zeros = functools.partial(torch.zeros, device=device)\n",
        # a shape given as a `torch.Size` of its dimensions
        "shape = torch.Size([self.num_pages, self.num_layers, heads, dim])\n",
        "self.kv = torch.empty(torch.Size((rows, cfg.num_layers, 1, width)))\n",
    ],
    ids=[
        "dict-key-second",
        "dict-key-first",
        "new-empty-four",
        "new-zeros-layers",
        "dict-table",
        "region-viewed",
        "shape-lines",
        "partial",
        "size-kept",
        "size-given",
    ],
)
def test_allocations_per_layer_of_other_spellings_are_kept(text):
    assert may_matter(source(text), [])


def test_a_small_allocation_of_dict_keys_is_left_out():
    assert not may_matter(source('self.w = torch.empty((cfg["rows"], cfg["cols"]))\n'), [])


@pytest.mark.parametrize(
    "text",
    [
        "self.w = self.raw.view(torch.int8).view(rows, cols)\n",  # no layers
        "scale = functools.partial(torch.mul, 2)\n",  # a partial of no allocator
        "shape = torch.Size([rows, cols])\n",  # a `torch.Size` naming no layers
    ],
)
def test_other_views_and_partials_are_left_out(text):
    assert not may_matter(source(text), [])


@pytest.mark.parametrize(
    "text",
    [
        "class W(KVPool):\n    pass\n",
        "class W(\n    Base,\n    KVPool,\n):\n    pass\n",
        "class W(pools.KVPool, metaclass=abc.ABCMeta):\n    pass\n",
        "    class W(Generic[T], KVPool): pass\n",
        "from pkg import KVPool as Parent\n\nclass W(Parent):\n    pass\n",
        "from pkg import (\n    KVPool as Parent,\n)\n",  # a re-export under a new name
    ],
    ids=["direct", "multi-line", "attribute", "indented", "alias", "re-export"],
)
def test_files_deriving_from_a_pool_name_are_checked(text):
    # `Parent` is a base somewhere in the tree (a re-export matters only then)
    assert BaseNames({b"Parent"}).needs_check(0, source(text), {b"KVPool"})


def test_a_re_export_nothing_derives_from_is_left_out():
    text = "from pkg import (\n    KVPool as Parent,\n)\n"
    assert not BaseNames({b"Other"}).needs_check(0, source(text), {b"KVPool"})


@pytest.mark.parametrize(
    "text",
    [
        "class W(Other):\n    pass\n",
        "import numpy as np\n\nclass W(np.ndarray):\n    pass\n",
        "from pkg import KVPool\n\npool = KVPool\n",
        "from pkg import KVPool as KVPool\n",
    ],
    ids=["other-base", "unrelated-alias", "use-not-derive", "same-name-alias"],
)
def test_files_not_deriving_are_left_out(text):
    assert not BaseNames().needs_check(0, source(text), {b"KVPool"})


# The pool fixtures: the vLLM ones hold no pool class (their engine stage reads its specs
# itself, auditor/engines/vllm.py), so the outline rule rightly keeps none of their files.
FIXTURES = sorted(
    p for p in (REPO / "fixtures").iterdir() if p.is_dir() and not p.name.startswith("vllm_")
)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_every_file_the_outline_rule_keeps_is_checked_up_front(fixture):
    settings = load_settings(None)
    sources, _ = discover([fixture])
    every = [parse_file(s, str(s.path)) for s in sources]
    kept = outline_rule(every, pool_words(settings))
    files = [read_file(s) for s in sources]
    facts = checked_facts(files, [None] * len(files), 1, pool_words(settings))
    checked = {str(s.path) for s, known in zip(sources, facts) if known is not None}
    must = {str(module.source.path) for module in every if id(module) in kept}
    assert must and must <= checked, sorted(must - checked)


def test_the_slow_path_checks_every_file(tmp_path, monkeypatch):
    """The oracle of test_speed_paths.audit_both_ways really switches the pre-filter off."""
    root = write_tree(tmp_path / "t", {"a.py": "x = 1\n", "b.py": "def f(:\n"})
    settings = load_settings(None)
    sources, _ = discover([root])
    files = [read_file(s) for s in sources]
    words = pool_words(settings)
    assert checked_facts(files, [None, None], 1, words) == [None, None]
    monkeypatch.setattr(auditor.frontend.prefilter, "may_define_pools", lambda data, words: True)
    facts = checked_facts(files, [None, None], 1, words)
    assert all(known is not None for known in facts)


def test_a_hostile_comprehension_does_not_backtrack():
    """A dict of allocations followed by many unfinished `for x,` targets and long runs of
    blanks: the pattern for unpacked targets stays linear (an ambiguous one took about a minute
    on these 20 KB; a review)."""
    import time

    data = b"{k: torch.zeros(1) " + (b"for x," + b" " * 200 + b"z\n") * 100
    started = time.perf_counter()
    assert not per_layer_bytes(data)
    assert time.perf_counter() - started < 5


def test_a_long_run_of_blanks_after_a_torch_size_does_not_backtrack():
    """`torch.Size(` then 40,000 blanks: the optional bracket after it is matched one way only
    (an ambiguous first version took about 16 s here; a review)."""
    import time

    started = time.perf_counter()
    assert not per_layer_bytes(b"return torch.Size(" + b" " * 40000)
    assert not per_layer_bytes(b"x = Size(" + b" " * 40000)
    assert time.perf_counter() - started < 5


def test_a_partial_is_rewritten_as_python_calls_it():
    """The call's keywords win over the partial's (no duplicate `dtype=`), and a name some
    function inside binds again (a parameter) is not rewritten."""
    import ast

    from auditor.frontend.desugar import desugared

    source = (
        "def f(self, n, d):\n"
        "    zeros = functools.partial(torch.zeros, dtype=torch.int8, device=d)\n"
        "    self.a = zeros((n, 4), dtype=torch.float16)\n"
        "    empty = functools.partial(torch.empty, device=d)\n"
        "    def g(empty):\n"
        "        return empty(3)\n"
        "    self.b = empty((n, 4))\n"
    )
    text = ast.unparse(desugared(ast.parse(source).body[0]))
    assert "self.a = torch.zeros((n, 4), device=d, dtype=torch.float16)" in text
    assert "self.b = empty((n, 4))" in text
