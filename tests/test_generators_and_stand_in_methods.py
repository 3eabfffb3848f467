"""Generators and a config object's methods (session 42, probe48 r08).

A prefill cache building its layers from a generator it unzips (`self.k, self.k_scale =
(list(b) for b in zip(*self._layers(n)))`, `_layers` yielding each layer's tensors) held no
storage the outline could name, and `yield` was not followed: its decode peer was never
paired. Generators are run whole at their call now (their items what their `yield`s give, in
order), and a method yielding allocations is one returning them. Once paired, the scales'
width came from the quant config's method (`quant.groups(head_dim, quant.k_group)`), which a
composed run sampled as a value of its own while the decode side computed `head_dim //
quant.k_group`: a false finding. A method of a stand-in's class is run on it now, as the code
computes it. Checked against the tensors the tree's own code builds on the meta device."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from helpers import assert_unknown, audit_json, evaluate, finding_figures, tree_modules, write_tree


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("list(squares(4))", [0, 1, 4, 9]),
        ("[a + b for a, b in pairs()]", [3, 7]),
        ("tuple(zip(*pairs()))", ((1, 3), (2, 4))),
        ("list(chained())", [0, 1, 2, 9]),
        ("list(early(5))", [0, 1]),
    ],
)
def test_a_generator_gives_what_it_yields(tmp_path, expression, expected):
    prelude = """
        def squares(n):
            for i in range(n):
                yield i * i

        def pairs():
            yield (1, 2)
            yield (3, 4)

        def chained():
            yield from range(3)
            yield 9

        def early(n):
            for i in range(n):
                if i == 2:
                    return
                yield i
    """
    assert evaluate(tmp_path, expression, prelude) == expected


def test_a_generator_yielding_on_an_undecided_path_is_unknown(tmp_path):
    prelude = """
        import os

        def maybe():
            yield 1
            if os.cpu_count() > 4:
                yield 2
    """
    assert_unknown(evaluate(tmp_path, "list(maybe())", prelude), "undecided")


def _tree(decode_cols: str) -> dict[str, str]:
    return {
        "pd/__init__.py": "",
        "pd/quant.py": """
            from dataclasses import dataclass

            import torch


            @dataclass(frozen=True)
            class GroupQuant:
                k_group: int = 64
                storage: torch.dtype = torch.int8
                scale_dtype: torch.dtype = torch.float16

                def columns(self, width: int, group: int) -> int:
                    count, rest = divmod(width, group)
                    if rest:
                        raise ValueError("group must divide the width")
                    return count
        """,
        "pd/caches.py": f"""
            import torch

            from .quant import GroupQuant


            class PrefillRows:
                def __init__(self, max_tokens: int, n_layers: int, heads: int, head_dim: int,
                             quant: GroupQuant, device="cuda"):
                    self.max_tokens, self.heads, self.head_dim = max_tokens, heads, head_dim
                    self.quant = quant
                    self.k_q, self.k_scale = (
                        list(b) for b in zip(*self._layers(n_layers, device))
                    )

                def _layers(self, n_layers, device):
                    q = self.quant
                    cols = q.columns(self.head_dim, q.k_group)
                    for _ in range(n_layers):
                        yield (
                            torch.empty((self.max_tokens, self.heads, self.head_dim),
                                        dtype=q.storage, device=device),
                            torch.empty((self.max_tokens, self.heads, cols),
                                        dtype=q.scale_dtype, device=device),
                        )


            class DecodeRows:
                def __init__(self, capacity: int, n_layers: int, heads: int, head_dim: int,
                             quant: GroupQuant, device="cuda"):
                    cols = {decode_cols}
                    self.k_q = [torch.empty((capacity, heads, head_dim), dtype=quant.storage,
                                            device=device) for _ in range(n_layers)]
                    self.k_scale = [torch.empty((capacity, heads, cols),
                                                dtype=quant.scale_dtype, device=device)
                                    for _ in range(n_layers)]
        """,
        "pd/build.py": """
            from .caches import DecodeRows, PrefillRows


            def build(model, quant, tp: int, prefill_tokens: int, decode_tokens: int,
                      device="cuda", decode_device="cuda"):
                heads = max(1, model.num_key_value_heads // tp)
                prefill = PrefillRows(prefill_tokens, model.num_hidden_layers, heads,
                                      model.head_dim, quant, device=device)
                decode = DecodeRows(decode_tokens, model.num_hidden_layers, heads,
                                    model.head_dim, quant, device=decode_device)
                return prefill, decode
        """,
    }


@pytest.mark.parametrize(
    "cols, drifted",
    [("head_dim // quant.k_group", False), ("head_dim // (2 * quant.k_group)", True)],
)
def test_a_prefill_cache_built_by_a_generator_is_paired_and_compared(
    tmp_path, capsys, monkeypatch, cols, drifted
):
    root = write_tree(tmp_path, _tree(cols))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    build, quant_module = tree_modules(root, monkeypatch, "pd", "build", "quant")
    quant = quant_module.GroupQuant()
    model = SimpleNamespace(num_key_value_heads=8, num_hidden_layers=2, head_dim=128)
    prefill, decode = build.build(model, quant, 2, 64, 32, device="meta", decode_device="meta")
    real = {
        name: (getattr(decode, name)[0].nbytes // 32, getattr(prefill, name)[0].nbytes // 64)
        for name in ("k_q", "k_scale")
    }
    assert (real["k_scale"][0] != real["k_scale"][1]) == drifted
    assert real["k_q"][0] == real["k_q"][1]
    figures = finding_figures(report)
    if not drifted:
        assert figures == {} and report["exit"] == 0
        return
    assert set(figures) == {"k_scale"}
    host, device = figures["k_scale"]
    assert host / device == real["k_scale"][0] / real["k_scale"][1] == 0.5
