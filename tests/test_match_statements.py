"""`match` statements (session 42, probe48 r01): a pool mapping its format string to a dtype
with `match fmt: case "fp8" | "fp8_e4m3": ...` was "Match is not followed", so everything the
statement could return became unknown and the site's figures fell back to samples on both
sides alike: a host whose `match` had no case for one format, falling through to the model's
dtype, compared clean. Value, singleton, capture, wildcard and `|` patterns (and guards) are
followed now, each literal noted as `==` notes it; other patterns stay undecided, said."""

from __future__ import annotations

import pytest
from helpers import (
    assert_unknown,
    audit_json,
    build,
    build_index,
    evaluate,
    finding_figures,
    tree_modules,
    write_tree,
)

from auditor.dtypes import torch_module
from auditor.interpret.control import Infeasible

torch = torch_module()

_PICK = """
    import torch

    def pick(fmt, fallback=None):
        match fmt:
            case "fp8" | "fp8_e4m3":
                return torch.float8_e4m3fn
            case "int8" if fallback is None:
                return torch.int8
            case None:
                return "none"
            case "auto":
                return fallback
            case other:
                return other.upper()
"""


@pytest.mark.parametrize(
    "call, expected",
    [
        ('pick("fp8")', torch.float8_e4m3fn),
        ('pick("fp8_e4m3")', torch.float8_e4m3fn),
        ('pick("int8")', torch.int8),
        ('pick("int8", 1)', "INT8"),  # the guard fails: the capture after it takes it
        ("pick(None)", "none"),
        ('pick("auto", 7)', 7),
        ('pick("bf16")', "BF16"),
    ],
)
def test_the_first_matching_case_runs(tmp_path, call, expected):
    assert evaluate(tmp_path, call, _PICK) == expected


def test_a_wildcard_and_no_matching_case(tmp_path):
    prelude = """
        def width(kind):
            size = 0
            match kind:
                case 1:
                    size = 10
                case 2:
                    size = 20
            return size

        def any_width(kind):
            match kind:
                case 1:
                    return 10
                case _:
                    return -1
    """
    assert evaluate(tmp_path, "(width(2), width(3), any_width(5))", prelude) == (20, 0, -1)


def test_a_pattern_of_another_kind_leaves_the_cases_from_it_undecided(tmp_path):
    prelude = """
        def rows(shape):
            match shape:
                case (a, b):
                    return a * b
                case _:
                    return 0
    """
    assert_unknown(
        evaluate(tmp_path, "rows((2, 3))", prelude), "MatchTuple pattern is not followed"
    )


def test_a_config_value_matched_against_literals_demands_them(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, kv_format):
                        match kv_format:
                            case "fp8":
                                dtype = torch.float8_e5m2
                            case "half":
                                dtype = torch.float16
                            case _:
                                raise ValueError(kv_format)
                        self.buf = torch.zeros((size, 8), dtype=dtype)
            """
        },
    )
    built = build(index, "Pool", {"size": 4, "kv_format": "half"})
    assert built.instance.attrs["buf"].nbytes == 4 * 8 * 2
    assert {("kv_format", "fp8")} <= built.point.demands
    with pytest.raises(Infeasible, match="raises ValueError"):  # no case but the last
        build(index, "Pool", {"size": 4, "kv_format": "int4"})


def _tree(host_cases: str) -> dict[str, str]:
    return {
        "tiers/__init__.py": "",
        "tiers/device.py": """
            import torch


            def device_dtype(fmt: str, model_dtype: torch.dtype) -> torch.dtype:
                match fmt:
                    case "auto":
                        return model_dtype
                    case "fp8":
                        return torch.float8_e4m3fn
                    case "fp8_e5m2":
                        return torch.float8_e5m2
                    case _:
                        raise ValueError(fmt)


            class SlotPool:
                def __init__(self, max_slots: int, n_layers: int, width: int, dtype,
                             device="cuda"):
                    self.width, self.dtype = width, dtype
                    self.rows = [torch.empty((max_slots, width), dtype=dtype, device=device)
                                 for _ in range(n_layers)]
        """,
        "tiers/host.py": f"""
            import torch


            def host_dtype(fmt: str, model_dtype: torch.dtype) -> torch.dtype:
                match fmt:
{host_cases}
                    case _:
                        return model_dtype


            class SlotMirror:
                def __init__(self, max_slots: int, n_layers: int, width: int, dtype,
                             device="cpu"):
                    self.rows = [torch.empty((max_slots, width), dtype=dtype, device=device)
                                 for _ in range(n_layers)]
        """,
        "tiers/setup.py": """
            import torch

            from .device import SlotPool, device_dtype
            from .host import SlotMirror, host_dtype


            def make_tiers(spec, args, device="cuda", host="cpu"):
                model_dtype = torch.bfloat16
                width = spec["kv_heads"] * spec["head_dim"]
                gpu = SlotPool(args.gpu_slots, spec["layers"], width,
                               device_dtype(args.kv_format, model_dtype), device=device)
                cpu = SlotMirror(args.host_slots, spec["layers"], width,
                                 host_dtype(args.kv_format, model_dtype), device=host)
                return gpu, cpu
        """,
    }


_EVERY_FP8 = """\
                    case "fp8" | "fp8_e5m2":
                        return torch.uint8"""
_ONE_FP8 = """\
                    case "fp8":
                        return torch.uint8"""


@pytest.mark.parametrize("cases, drifted", [(_EVERY_FP8, False), (_ONE_FP8, True)])
def test_a_host_whose_match_misses_a_format_is_reported(
    tmp_path, capsys, monkeypatch, cases, drifted
):
    from types import SimpleNamespace

    root = write_tree(tmp_path, _tree(cases))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [setup] = tree_modules(root, monkeypatch, "tiers", "setup")
    args = SimpleNamespace(gpu_slots=64, host_slots=128, kv_format="fp8_e5m2")
    gpu, cpu = setup.make_tiers(
        {"kv_heads": 8, "head_dim": 128, "layers": 2}, args, device="meta", host="meta"
    )
    real = (cpu.rows[0].nbytes // 128, gpu.rows[0].nbytes // 64)
    assert (real[0] != real[1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert "kv_format=fp8_e5m2" in finding["message"]
    host, device = figures["rows"]
    assert host / device == real[0] / real[1] == 2
