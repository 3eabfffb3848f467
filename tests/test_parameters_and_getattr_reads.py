"""A pool kept in a torch module's parameters, counting its layers with `getattr` (session 40,
probe46 r06).

- `nn.ParameterList([nn.Parameter(torch.empty(...), requires_grad=False) for ...])` holds the
  tensors it is given: the interpreter models `nn.Parameter`, `nn.Buffer`, `ParameterList`
  and `ParameterDict` as the tensors and containers they wrap, and the pre-filter reads an
  allocation given to a wrapper in a per-layer list (or a lambda) as per-layer allocation.
- `getattr(cfg, "num_hidden_layers")` reads the attribute it names: recognition reads it as
  `cfg.num_hidden_layers` (not `getattr(cfg, "x", default)`, whose fallback decides where
  the object's class never gives `x`: tests/test_sizes_and_dtype_names.py).
Before, the arena was no pool and the pair was never made (exit 0, "no host pool found").
Checked against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, evaluate, finding_figures, write_tree

from auditor.frontend.behaviour import per_layer_bytes


def _tree(mirror_heads: str) -> dict[str, str]:
    return {
        "ck/__init__.py": "",
        "ck/arena.py": """
            import torch
            from torch import nn


            class Arena(nn.Module):
                def __init__(self, cfg, tp_size, num_tokens, device="cuda"):
                    super().__init__()
                    heads = max(1, cfg.num_key_value_heads // tp_size)
                    n_layers = getattr(cfg, "num_hidden_layers")
                    mk = lambda: nn.Parameter(
                        torch.empty(num_tokens, heads, cfg.head_dim, dtype=torch.bfloat16,
                                    device=device),
                        requires_grad=False)
                    self.keys = nn.ParameterList([mk() for _ in range(n_layers)])
        """,
        "ck/mirror.py": f"""
            import torch


            class Mirror:
                def __init__(self, cfg, tp_size, num_tokens, device="cpu"):
                    total = cfg.num_key_value_heads
                    heads = {mirror_heads}
                    self.keys = [
                        torch.empty((num_tokens, heads * cfg.head_dim), dtype=torch.bfloat16,
                                    device=device)
                        for _ in range(cfg.num_hidden_layers)
                    ]
        """,
        "ck/manager.py": """
            from .arena import Arena
            from .mirror import Mirror


            def make_pair(cfg, tokens, tp_size=2, device="cuda"):
                arena = Arena(cfg, tp_size, tokens, device)
                mirror = Mirror(cfg, tp_size, 2 * tokens,
                                "meta" if device == "meta" else "cpu")
                return arena, mirror
        """,
    }


class _Config:
    num_hidden_layers = 4
    num_key_value_heads = 8
    head_dim = 128


@pytest.mark.parametrize(
    "mirror_heads, drifted",
    [("max(1, total // tp_size)", False), ("total", True)],  # heads not split over ranks
)
def test_a_parameter_list_arena_is_paired_and_compared(
    tmp_path, capsys, monkeypatch, mirror_heads, drifted
):
    root = write_tree(tmp_path, _tree(mirror_heads))
    report = audit_json(root, capsys)
    assert report["summary"]["pairs"] == report["summary"]["pairs_compared"] == 1
    arena, mirror = built_by_the_tree(
        root,
        monkeypatch,
        "ck",
        "manager",
        "make_pair",
        cfg=_Config(),
        tp_size=2,
        tokens=8,
        device="meta",
    )
    real = (mirror.keys[0].nbytes // 16, arena.keys[0].nbytes // 8)
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    assert set(figures) == ({"keys"} if drifted else set())
    if drifted:  # the audit samples its own head counts: the ratio is the tree's
        host, device = figures["keys"]
        assert host / device == real[0] / real[1]


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("nn.Parameter(torch.empty((4, 8), dtype=torch.bfloat16), requires_grad=False).nbytes", 64),
        ("len(nn.ParameterList([nn.Parameter(torch.empty(2)) for _ in range(3)]))", 3),
        ("nn.ParameterDict({'k': nn.Parameter(torch.empty(4))})['k'].nbytes", 16),
        ("nn.Buffer(torch.empty((2, 2), dtype=torch.float16)).nbytes", 8),
    ],
)
def test_module_parameters_are_the_tensors_they_wrap(tmp_path, expression, expected):
    """As torch has them (checked here on the meta device for the same expression)."""
    import torch
    from torch import nn

    prelude = "import torch\nfrom torch import nn\n"
    with torch.device("meta"):
        real = eval(expression, {"torch": torch, "nn": nn})
    assert real == expected
    assert evaluate(tmp_path, expression, prelude) == expected


@pytest.mark.parametrize(
    "line",
    [
        b"        self.k = nn.ParameterList([nn.Parameter(torch.empty(n, d)) for _ in range(L)])",
        b"        mk = lambda: nn.Parameter(\n            torch.empty(n, h, d), requires_grad=False)",
    ],
)
def test_the_pre_filter_reads_wrapped_allocations(line):
    assert per_layer_bytes(b"class A:\n    def __init__(self, n, L):\n" + line + b"\n")


@pytest.mark.parametrize(
    "expression, words",
    [("nn.Parameter(1.0)", ("not of a tensor",)), ("nn.Parameter()", ("without its tensor",))],
)
def test_a_parameter_of_no_tensor_is_unknown(tmp_path, expression, words):
    """Unknown is not zero: a parameter of something else is said, not measured."""
    from helpers import assert_unknown

    assert_unknown(evaluate(tmp_path, expression, "import torch\nfrom torch import nn\n"), *words)
