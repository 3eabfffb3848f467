"""Pools recognised by what they allocate (behaviour.py, roles.py), with no configuration."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from helpers import write_tree

from auditor.frontend.behaviour import constructor, infer_roles, methods_of, params_of, read_facts
from auditor.frontend.parse import outline, outline_as_json, outline_from_json
from auditor.frontend.prefilter import may_define_pools
from auditor.pipeline import audit
from auditor.settings import load_settings


def roles_of(source: str):
    node = ast.parse(textwrap.dedent(source)).body[-1]
    assert isinstance(node, ast.ClassDef)
    return infer_roles(read_facts(methods_of(node), params_of(constructor(node))))


def test_counts_are_read_off_the_shapes_not_the_names():
    roles = roles_of(
        """
        class Cache:
            def __init__(self, slots: int, depth: int, width: int = 64):
                self.rows = [torch.zeros((slots, width)) for _ in range(depth)]
        """
    )
    assert (roles.tokens, roles.layers) == ("slots", "depth")
    leading = roles_of(
        """
        class Slab:
            def __init__(self, n_layers, capacity, heads=8, dim=64):
                self.kv = torch.empty((n_layers, 2, capacity, heads, dim))
        """
    )
    assert (leading.tokens, leading.layers) == ("capacity", "n_layers")
    # the layer dimension after a literal one (K and V first): still the leading count
    after_kv = roles_of(
        """
        class Slab:
            def __init__(self, num_tokens: int, num_layers: int, heads: int = 8, dim: int = 64):
                self.kv = torch.empty((2, num_layers, num_tokens, heads, dim))
        """
    )
    assert (after_kv.tokens, after_kv.layers) == ("num_tokens", "num_layers")


def test_a_tie_says_nothing():
    """Two counts in the leading dimension, neither named like one: no guess."""
    assert (
        roles_of(
            """
            class Grid:
                def __init__(self, a: int, b: int, n: int):
                    self.cells = [torch.zeros((a * b, 4)) for _ in range(n)]
            """
        )
        is None
    )


def test_a_count_named_for_something_else_is_no_token_count():
    """Per-layer expert statistics: `num_experts` sizes a dimension after the layers, but it
    says it counts experts, not tokens, so the class is no KV pool (its host copy would
    otherwise be reported for not mirroring `topk_hist`)."""
    source = """
        class ExpertLoadStats:
            def __init__(self, num_layers: int, num_experts: int, window: int = 128):
                self.counts = torch.zeros((num_layers, window, num_experts))
                self.topk_hist = torch.zeros((num_layers, num_experts))
        """
    assert roles_of(source) is None
    renamed = roles_of(source.replace("num_experts", "num_slots"))
    assert (renamed.tokens, renamed.layers) == ("num_slots", "num_layers")


def test_no_per_layer_allocation_is_no_pool():
    assert (
        roles_of(
            """
            class Table:
                def __init__(self, num_tokens: int, width: int):
                    self.rows = torch.zeros((num_tokens, width))
            """
        )
        is None
    )


def test_paged_pools_count_tokens_per_block():
    roles = roles_of(
        """
        class Paged:
            def __init__(self, num_blocks: int, block_size: int, num_layers: int):
                shape = (num_blocks, block_size, 8, 64)
                self.k = [torch.empty(shape) for _ in range(num_layers)]
        """
    )
    assert (roles.tokens, roles.block) == ("num_blocks", "block_size")


def test_the_outline_keeps_what_behaviour_says(tmp_path: Path):
    tree = ast.parse(
        textwrap.dedent(
            """
            class Pool:
                def __init__(self, num_tokens: int, num_layers: int):
                    self.kv = [torch.zeros((num_tokens, 8)) for _ in range(num_layers)]

            class Mirror:
                def __init__(self, pool: "Pool", slots: int = 4):
                    self.kv = [torch.zeros((slots, 8)) for _ in range(pool.num_layers)]

            class Model:
                def __init__(self, hidden: int):
                    self.weight = torch.empty((hidden, hidden))
            """
        )
    )
    shape = outline(tree)
    pool, mirror, model = shape.classes
    assert pool.behaves and "Pool" in mirror.mirrors and not pool.mirrors
    # the mirror's layers are read off an object (`pool.num_layers`): it is kept up front, so
    # that the catalog pairs it or says it is not audited (test_not_audited.py)
    assert mirror.behaves
    assert not model.behaves and not model.mirrors  # no parameter annotated with a class
    assert outline_from_json(outline_as_json(shape)) == shape


def test_the_pre_filter_keeps_per_layer_allocations_only():
    words = [b"layer_num"]
    per_layer = b"def __init__(self, n):\n    self.k = [torch.zeros(n, 4) for _ in range(n)]\n"
    slab = b"def __init__(self, n, t):\n    self.k = torch.empty((n, 2, t, 8, 64))\n"
    model = b"def __init__(self, h):\n    self.w = torch.empty((h, h))\n"
    assert may_define_pools(per_layer, words) and may_define_pools(slab, words)
    assert not may_define_pools(model, words)


DEVICE = """
    import torch


    class KV:
        def __init__(self, num_tokens: int, num_layers: int, heads: int):
            self.heads = heads
            self.kv = [torch.zeros((num_tokens, heads, 64)) for _ in range(num_layers)]
"""


def test_a_free_parameter_that_changes_the_figure_is_unresolved_and_named(tmp_path: Path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/kv.py": DEVICE})
    result = audit([tmp_path], load_settings(None))
    [device] = result.catalog.devices
    assert device.name == "KV"
    reasons = [u.unknown.reason for u in result.unresolved]
    assert reasons and all("depend on heads" in r for r in reasons), reasons
    assert result.findings == []


def test_a_class_calling_what_it_takes_is_no_mirror(tmp_path: Path):
    """A wrapper given a pool class to build (a factory) holds sub-pools, not mirrors."""
    wrapper = """
        import torch

        from pkg.kv import KV


        class Wrapper:
            def __init__(self, n: int, pool_class: KV):
                self.inner = pool_class(n, 2, 8)
                self.kv = [torch.zeros((n, 8, 64)) for _ in range(2)]
    """
    write_tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/kv.py": DEVICE, "pkg/wrapper.py": wrapper},
    )
    result = audit([tmp_path], load_settings(None))
    assert result.catalog.hosts == [] and result.catalog.pairs == []


def test_configured_names_still_win(tmp_path: Path):
    """A class the pack's names describe is not read for its behaviour."""
    source = """
        import torch


        class Pool:
            def __init__(self, size: int, layer_num: int, slots: int):
                self.kv = [torch.zeros((slots, 8)) for _ in range(layer_num)]
    """
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pool.py": source})
    result = audit([tmp_path], load_settings(None))
    assert result.catalog.roles.tokens(result.catalog.devices[0]) == list(
        load_settings(None).token_params
    )


PACK_NAMED_HOST = """
    import torch

    from pkg.kv import KV


    class KVHost:
        def __init__(self, device_pool: KV, host_tokens: int, heads: int = 8):
            self.kv = [
                torch.zeros((host_tokens, heads, 64), dtype=DTYPE)
                for _ in range(len(device_pool.kv))
            ]
"""


def test_a_host_by_the_pack_name_counts_tokens_by_its_own(tmp_path: Path):
    """`device_pool` is the pack's name, `host_tokens` is not: the host's token count is read
    off its shapes, not taken as a value it never changes with (every figure 0 B/token)."""
    device = DEVICE.replace("heads: int):", "heads: int = 8):")
    for dtype, findings in (("torch.float32", 0), ("torch.float16", 1)):
        root = tmp_path / dtype
        write_tree(
            root,
            {
                "pkg/__init__.py": "",
                "pkg/kv.py": device,
                "pkg/host.py": PACK_NAMED_HOST.replace("DTYPE", dtype),
            },
        )
        result = audit([root], load_settings(None))
        assert result.coverage.compared == 1 and result.unresolved == []
        assert len(result.findings) == findings
        for finding in result.findings:  # 8 heads x 64 in float16, against float32
            assert "1024 B/token/layer vs 2048 B/token/layer" in finding.message


def _trees() -> list[ast.Module]:
    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "fixtures").rglob("*.py")) + sorted((root / "auditor").rglob("*.py"))
    return [ast.parse(path.read_text(encoding="utf-8")) for path in files]


def test_the_walk_behaviour_reads_is_ast_walk_in_its_order():
    from auditor.frontend import behaviour

    trees = _trees()
    assert len(trees) > 50
    for tree in trees:
        for node in (tree, *tree.body):
            assert behaviour._walk(node) == list(ast.walk(node))


def test_walks_are_kept_only_while_facts_are_read():
    """A kept walk would go stale where a rewriter changes a copy; read_facts reads only."""
    from auditor.frontend import behaviour

    asked: list[int] = []
    walked: list[int] = []
    walk, nodes = behaviour._walk, behaviour.walk.nodes

    def asking(node):
        asked.append(len(behaviour._WALKS))
        return walk(node)

    def walking(node):
        walked.append(len(behaviour._WALKS))
        return nodes(node)

    behaviour._walk, behaviour.walk.nodes = asking, walking
    source = """
        class C:
            def __init__(self, n: int, layers: int):
                self.k = [torch.zeros(n, 8) for _ in range(layers)]
                self.v = [torch.zeros(n, 8) for _ in range(layers)]
    """
    try:
        node = ast.parse(textwrap.dedent(source)).body[0]
        facts = read_facts(methods_of(node), params_of(constructor(node)))
    finally:
        behaviour._walk, behaviour.walk.nodes = walk, nodes
    assert behaviour._WALKS == []  # nothing kept once read
    assert len(facts.shapes) == 2
    inside = [depth for depth in asked if depth]
    # inside, each node is walked once however often it is asked for
    assert inside and len([d for d in walked if d]) < len(inside)
