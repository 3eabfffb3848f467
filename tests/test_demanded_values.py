"""Values the code demands (auditor/evaluation/evaluate.py, `demanded_values`): a pool whose
own guards accept only values outside the matrix (`if page_size != 128: raise`) is evaluated
at the values its code compares with, for that pool only, instead of never being compared."""

from __future__ import annotations

from pathlib import Path

from helpers import write_tree

from auditor.pipeline import AuditResult, audit
from auditor.settings import load_settings

POOLS = """
    import torch

    class PagedKV:
        def __init__(self, size: int, layer_num: int, page_size: int, head_dim: int = 128):
            if page_size != 128:
                raise ValueError("only 128-token pages")
            self.size = size
            self.k_buffer = [
                torch.zeros((size, head_dim), dtype=torch.bfloat16) for _ in range(layer_num)
            ]

    class PagedKVHost:
        def __init__(self, pool: PagedKV, capacity: int, layout: str = "layer_first"):
            if layout != "page_first_kv_split":
                raise NotImplementedError("page_first_kv_split only")
            self.size = capacity
            self.k_buffer = torch.zeros(
                (len(pool.k_buffer), capacity, HOST_DIM), dtype=torch.bfloat16
            )

    def build(pool: PagedKV, layout: str):
        return PagedKVHost(pool, capacity=pool.size, layout=layout)
"""


def run(root: Path, host_dim: str) -> AuditResult:
    write_tree(
        root, {"paged/__init__.py": "", "paged/pools.py": POOLS.replace("HOST_DIM", host_dim)}
    )
    settings = load_settings(
        None
    )  # the default pack: page_size in [1, 64], no page_first_kv_split layout
    settings.respect_gitignore = False
    return audit([root], settings)


def test_a_pool_demanding_values_outside_the_matrix_is_compared_there(tmp_path):
    buggy = run(tmp_path / "buggy", "64")
    [finding] = [f for f in buggy.findings if f.code == "LA001"]
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (128, 256)
    assert "page_size=128, layout=page_first_kv_split: values the code demands" in finding.message
    [evaluation] = [e for e in buggy.evaluations if e.host is not None]
    # the page size the device demands, then the layout the host demands once it is built
    assert evaluation.demanded == {"page_size": (128,), "layout": ("page_first_kv_split",)}
    [pair] = buggy.coverage.pairs
    assert pair.compared and pair.points_feasible == 1
    fixed = run(tmp_path / "fixed", "pool.k_buffer[0].shape[1]")
    assert fixed.findings == [] and fixed.coverage.compared == 1


def test_a_matrix_with_a_feasible_point_is_not_widened(tmp_path):
    """Demanded values are tried only when no point of the matrix is feasible."""
    source = POOLS.replace("if page_size != 128:", "if page_size == 3:").replace(
        'if layout != "page_first_kv_split":', "if layout == 'never':"
    )
    write_tree(
        tmp_path,
        {
            "paged/__init__.py": "",
            "paged/pools.py": source.replace("HOST_DIM", "pool.k_buffer[0].shape[1]"),
        },
    )
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([tmp_path], settings)
    assert all(e.demanded == {} for e in result.evaluations)
    assert {p.values["page_size"] for e in result.evaluations for p in e.points} <= {1, 64}


def test_a_constant_s_name_is_demanded_as_its_literal_is(tmp_path):
    """`if page_size != MSA_V1_PAGE_SIZE: raise` (SGLang 0.5.23's MiniMax NVFP4 pools): a
    module constant, or a class's (`self.PAGE`), holds a literal as surely as one written out;
    a lower-case name (a variable) is not taken for one."""
    source = (
        POOLS.replace("    import torch\n", "    import torch\n\n    PAGE = 128\n")
        .replace("if page_size != 128:", "if page_size != PAGE:")
        .replace('if layout != "page_first_kv_split":', "if layout != self.LAYOUT:")
        .replace(
            "    class PagedKVHost:\n",
            '    class PagedKVHost:\n        LAYOUT = "page_first_kv_split"\n\n',
        )
    )
    write_tree(
        tmp_path / "constants",
        {"paged/__init__.py": "", "paged/pools.py": source.replace("HOST_DIM", "64")},
    )
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([tmp_path / "constants"], settings)
    [evaluation] = [e for e in result.evaluations if e.host is not None]
    assert evaluation.demanded == {"page_size": (128,), "layout": ("page_first_kv_split",)}
    [finding] = [f for f in result.findings if f.code == "LA001"]
    assert (finding.host.bytes_per_token, finding.device.bytes_per_token) == (128, 256)
    variable = source.replace("    PAGE = 128\n", "    page = 128\n").replace(
        "!= PAGE:", "!= page:"
    )
    write_tree(
        tmp_path / "variable",
        {"paged/__init__.py": "", "paged/pools.py": variable.replace("HOST_DIM", "64")},
    )
    result = audit([tmp_path / "variable"], settings)
    assert all("page_size" not in e.demanded for e in result.evaluations)
