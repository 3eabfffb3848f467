"""Command-line configs (session 43, probe50 r08): an in-house server sizing its pools from
`argparse` options, or a test harness from a `types.SimpleNamespace`, left everything behind the
namespace unknown. The parser is recorded as declared; `parse_args()` of the process's command
line gives each option its default, the choices of an option (and both values of a flag) being
a config dimension named by its flag; a command line the code spells out is parsed by argparse
itself from the declarations. Never a callable of the audited code."""

from __future__ import annotations

import pytest
from helpers import assert_unknown, audit_json, evaluate, finding_figures, tree_modules, write_tree

_PARSER = """
    import argparse
    import types

    def build():
        p = argparse.ArgumentParser(prog="srv")
        g = p.add_argument_group("cache")
        g.add_argument("--kv-dtype", default="auto", choices=["auto", "fp8"])
        p.add_argument("--tp", type=int, default="2")
        p.add_argument("--page", type=int, default=16)
        p.add_argument("--scales", action="store_true")
        p.add_argument("--quiet", action="store_false", dest="verbose")
        p.add_argument("-v", "--version", action="version", version="1")
        p.set_defaults(mode="serve")
        return p
"""


@pytest.mark.parametrize(
    "expression, expected",
    [
        # the process's command line: the defaults (a text default converted by its type)
        ("vars_of(build().parse_args())", ("auto", 2, 16, False, True, "serve")),
        ("vars_of(build().parse_args(None))", ("auto", 2, 16, False, True, "serve")),
        # a command line the code spells out: parsed by argparse from the declarations
        (
            'vars_of(build().parse_args(["--kv-dtype", "fp8", "--tp", "4", "--scales"]))',
            ("fp8", 4, 16, True, True, "serve"),
        ),
        (
            'vars_of(build().parse_known_args(["--quiet"])[0])',
            ("auto", 2, 16, False, False, "serve"),
        ),
        ("types.SimpleNamespace(a=1, b='x').b", "x"),
        ("set_then_read(types.SimpleNamespace(a=1))", (1, 5, None)),
    ],
)
def test_a_parsed_namespace_holds_what_argparse_gives(tmp_path, expression, expected):
    prelude = (
        _PARSER
        + """
    def vars_of(ns):
        return (ns.kv_dtype, ns.tp, ns.page, ns.scales, ns.verbose, ns.mode)

    def set_then_read(ns):
        ns.b = 5
        setattr(ns, "c", None)
        return (ns.a, ns.b, getattr(ns, "c", 7))
"""
    )
    assert evaluate(tmp_path, expression, prelude) == expected


@pytest.mark.parametrize(
    "expression, words",
    [
        ('build().parse_args(["--tp", "x"])', "argparse refuses"),
        ('build().parse_args(["--kv-dtype", "int4"])', "argparse refuses"),
        ("bad().parse_args().n", "nargs"),
        ("callable_type().parse_args().n", "type= the interpreter does not model"),
        ("build().parse_args().missing", "no attribute"),
        ("argparse.ArgumentParser(argument_default=0).parse_args().x", "argument_default"),
    ],
)
def test_what_argparse_refuses_or_is_not_modelled_stays_unknown(tmp_path, expression, words):
    prelude = (
        _PARSER
        + """
    def bad():
        p = argparse.ArgumentParser()
        p.add_argument("--n", nargs=2, type=int, default=[1, 2])
        return p

    def callable_type():
        p = argparse.ArgumentParser()
        p.add_argument("--n", type=lambda s: int(s) * 2, default=3)
        p.add_argument("--m", type=int, default=1)
        return p
"""
    )
    assert_unknown(evaluate(tmp_path, expression, prelude), words)


def _tree(host_fp8_bytes: int) -> dict[str, str]:
    """A server whose pools are sized from its own command line; the host mirror counts fp8
    elements as `host_fp8_bytes` bytes (1 is right)."""
    return {
        "srv/__init__.py": "",
        "srv/cli.py": """
            import argparse


            def parse(argv=None):
                p = argparse.ArgumentParser(prog="srv")
                p.add_argument("--kv-dtype", default="bf16", choices=["bf16", "fp8_e5m2"])
                p.add_argument("--tp", type=int, default=1)
                p.add_argument("--max-tokens", type=int, default=4096)
                p.add_argument("--host-tokens", type=int, default=8192)
                return p.parse_args(argv)
        """,
        "srv/pools.py": """
            import torch


            class DeviceKV:
                def __init__(self, size, layer_num, heads, head_dim, dtype, device="cuda"):
                    self.k = [torch.empty((size, heads, head_dim), dtype=dtype, device=device)
                              for _ in range(layer_num)]


            class HostKV:
                def __init__(self, size, layer_num, row_bytes, device="cpu"):
                    self.k = [torch.empty((size, row_bytes), dtype=torch.uint8, device=device)
                              for _ in range(layer_num)]
        """,
        "srv/server.py": f"""
            import torch

            from .cli import parse
            from .pools import DeviceKV, HostKV

            DTYPES = {{"bf16": torch.bfloat16, "fp8_e5m2": torch.float8_e5m2}}
            HOST_BYTES = {{"bf16": 2, "fp8_e5m2": {host_fp8_bytes}}}


            def start(argv=None, device="cuda", host="cpu"):
                args = parse(argv)
                heads = 8 // args.tp
                gpu = DeviceKV(args.max_tokens, 4, heads, 128, DTYPES[args.kv_dtype],
                               device=device)
                row = heads * 128 * HOST_BYTES[args.kv_dtype]
                cpu = HostKV(args.host_tokens, 4, row, device=host)
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize("fp8_bytes, drifted", [(1, False), (2, True)])
def test_a_host_wrong_at_one_choice_of_an_option_is_reported_there(
    tmp_path, capsys, monkeypatch, fp8_bytes, drifted
):
    root = write_tree(tmp_path, _tree(fp8_bytes))
    report = audit_json(root, capsys)
    summary = report["summary"]
    assert summary["pairs_compared"] == summary["pairs"] == 1
    [server] = tree_modules(root, monkeypatch, "srv", "server")
    real = {}
    for choice in ("bf16", "fp8_e5m2"):
        gpu, cpu = server.start(["--kv-dtype", choice], device="meta", host="meta")
        real[choice] = (cpu.k[0].nbytes // 8192, gpu.k[0].nbytes // 4096)
    assert real["bf16"][0] == real["bf16"][1]  # the default agrees either way
    assert (real["fp8_e5m2"][0] != real["fp8_e5m2"][1]) == drifted
    figures = finding_figures(report)
    if not drifted:
        assert figures == {}
        return
    [finding] = report["findings"]
    assert "--kv-dtype=fp8_e5m2" in finding["message"]
    assert figures["k"] == real["fp8_e5m2"]  # 2048 against 1024
