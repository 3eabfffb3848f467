"""A host mirror whose device-pool parameter is untyped and read only for the pool's figures
(`source.n_layers`, `source.dtype`), not its buffers, is still found, zero config: its
allocations are sized by attributes that a device pool has, every one of them."""

from __future__ import annotations

import ast
import textwrap

import pytest
from helpers import write_tree

from auditor.frontend.behaviour import instance_attributes, params_of, read_facts
from auditor.pipeline import audit
from auditor.settings import load_settings

DEVICE = """
    import torch

    class LayeredKVCache:
        def __init__(self, num_tokens: int, n_layers: int, width: int = 256, dtype=torch.bfloat16):
            self.n_layers = n_layers
            self.width = width
            self.dtype = dtype
            self.k = [torch.empty((num_tokens, width), dtype=dtype) for _ in range(n_layers)]

        @property
        def row_bytes(self):
            return self.width * self.dtype.itemsize
"""

HOST = """
    import torch

    class CpuTier:
        def __init__(self, source, capacity):
            self.k = torch.empty({shape}, dtype={dtype})
"""


def _run(tmp_path, shape: str, dtype: str = "source.dtype"):
    write_tree(
        tmp_path,
        {
            "kv/gpu_cache.py": DEVICE,
            "kv/cpu_tier.py": HOST.format(shape=shape, dtype=dtype),
        },
    )
    settings = load_settings(None)
    settings.respect_gitignore = False
    return audit([tmp_path / "kv"], settings)


def test_a_host_sized_by_the_pool_s_attributes_is_paired_and_compared(tmp_path):
    result = _run(tmp_path, "(source.n_layers, capacity, source.width + 32)")
    assert [h.name for h in result.catalog.hosts] == ["CpuTier"]
    (pair,) = result.catalog.pairs
    assert pair.device.name == "LayeredKVCache"
    assert "use of source.dtype, source.n_layers, source.width" in pair.evidence.text()
    (finding,) = [f for f in result.findings if f.code == "LA001"]
    assert "576 B/token/layer vs 512 B/token/layer" in finding.message  # at bf16


@pytest.mark.parametrize(
    ("shape", "dtype", "why"),
    [
        # an attribute no device pool has: it is not a pool it reads
        ("(source.n_layers, capacity, source.columns)", "source.dtype", "columns"),
        # attributes read, but nothing allocated is sized by them
        ("(4, capacity, 256)", "torch.bfloat16", "unsized"),
    ],
)
def test_a_class_reading_other_figures_is_not_a_host(tmp_path, shape, dtype, why):
    result = _run(tmp_path, shape, dtype)
    if why == "unsized":  # read, not sized by: `n = source.n_layers` alone does not count
        (tmp_path / "kv/cpu_tier.py").write_text(
            textwrap.dedent(HOST.format(shape=shape, dtype=dtype)) + "        n = source.n_layers\n"
        )
        result = _run(tmp_path, shape, dtype)
    assert result.catalog.hosts == [] and result.catalog.pairs == []
    assert result.findings == []


def test_facts_say_which_parameters_size_allocations():
    tree = ast.parse(
        textwrap.dedent(
            """
            class C:
                def __init__(self, source, other, n):
                    self.held = other
                    self.k = torch.empty((source.n_layers, n), dtype=self.held.dtype)
                    width = source.width
            """
        )
    )
    (cls,) = tree.body
    facts = read_facts([cls.body[0]], params_of(cls.body[0]))
    assert facts.sized_by == {"source", "other"}  # `self.held` is a copy of `other`


def test_instance_attributes_are_what_the_class_gives_its_objects():
    tree = ast.parse(textwrap.dedent(DEVICE))
    (_, cls) = tree.body
    assert instance_attributes(cls) == {"__init__", "row_bytes", "n_layers", "width", "dtype", "k"}
