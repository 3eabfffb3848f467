"""LA202: the view an attention backend puts on a layer's KV buffer vs the layer's spec page.

fixtures/vllm_backend_view_{buggy,fixed} is vLLM 0.11.0 cut down to one runner, its specs and
three backends: the buggy FlashMLA-sparse backend views the packed fp8_ds_mla rows with another
row size (604 B) than the spec's page (656 B). The oracle runs the fixture's real runner
(`_reshape_kv_cache_tensors`, on torch's meta device) with each backend the auditor paired.
"""

from __future__ import annotations

import importlib
import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import real_torch, write_tree
from test_vllm_oracle import imported, real_layer_spec

from auditor.engines.vllm import VllmOutcome
from auditor.engines.vllm_backends import BLOCKS, ViewOutcome
from auditor.engines.vllm_examples import VIEW_BUGGY, VIEW_FIXED
from auditor.engines.vllm_pack import bundled_table, load_pack
from auditor.engines.vllm_specs import point_label
from auditor.pipeline import audit
from auditor.settings import ConfigError, load_settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = {"buggy": REPO / "fixtures/vllm_backend_view_buggy"}
FIXTURES["fixed"] = REPO / "fixtures/vllm_backend_view_fixed"


def audited(root: Path) -> tuple[Any, list[ViewOutcome]]:
    """The audit of `root` and every view its vLLM stage evaluated."""
    result = audit([root], load_settings(None))
    [outcome] = [o for o in result.stages if isinstance(o, VllmOutcome)]
    return result, outcome.views


def real_view(values: dict[str, Any], backend_module: str, backend_name: str) -> dict[str, Any]:
    """Run the fixture's runner for real: the spec it builds, the shape the backend gives for
    a buffer of BLOCKS pages, and whether `view` accepted it."""
    runner, spec = real_layer_spec(values)
    backend = getattr(importlib.import_module(backend_module), backend_name)
    shapes: list[tuple] = []
    original = backend.__dict__.get("get_kv_cache_shape")
    real_shape = backend.get_kv_cache_shape

    def recorded(*args: Any, **kwargs: Any) -> tuple:
        shapes.append(tuple(real_shape(*args, **kwargs)))
        return shapes[-1]

    runner.attn_groups = [
        SimpleNamespace(kv_cache_spec=spec, backend=backend, layer_names=["layers.0.attn"])
    ]
    import torch

    raw = torch.empty(BLOCKS * spec.page_size_bytes, dtype=torch.int8, device="meta")
    backend.get_kv_cache_shape = staticmethod(recorded)
    try:
        runner._reshape_kv_cache_tensors(None, {"layers.0.attn": raw})
        viewed = True
    except RuntimeError:
        viewed = False
    finally:
        if original is None:
            del backend.get_kv_cache_shape
        else:
            backend.get_kv_cache_shape = original
    [shape] = shapes
    return {
        "page": spec.page_size_bytes,
        "view": math.prod(shape) * spec.dtype.itemsize // BLOCKS,
        "viewed": viewed,
        "spec": type(spec).__name__,
    }


@pytest.mark.parametrize("kind", ["buggy", "fixed"])
def test_static_views_equal_real_views(kind: str) -> None:
    root = FIXTURES[kind]
    result, views = audited(root)
    assert views and all(v.view_bytes is not None for v in views)
    pack = load_pack(load_settings(None).engine_tables.get("vllm", {}))
    by_point = {point_label(values): values for values in pack.points()}
    differing: set[str] = set()
    with imported(root):
        selector = importlib.import_module("vllm.attention.selector")
        for view in views:
            values = {k: real_torch(v) for k, v in view.values.items()}
            real = real_view(values, view.backend.module.name, view.backend.name)
            assert (view.spec_class, view.spec_page) == (real["spec"], real["page"])
            assert view.view_bytes == real["view"], (view.backend.name, view.values)
            # the real `view` fails exactly where the figures differ (the contiguous path)
            assert real["viewed"] == (view.view_bytes == view.spec_page)
        for label, values in by_point.items():
            real_values = {k: real_torch(v) for k, v in values.items()}
            try:
                chosen = selector.get_attn_backend(
                    values["head_size"],
                    real_values["model_dtype"],
                    values["cache_dtype"],
                    values["use_mla"],
                )
            except ValueError:
                continue  # vLLM refuses this configuration: no runner, nothing to view
            paired = {v.backend.name for v in views if point_label(v.values) == label}
            # what the runner would really hold at this point was compared there
            assert chosen.__name__ in paired, (label, paired)
            real = real_view(real_values, chosen.__module__, chosen.__name__)
            if not real["viewed"]:
                differing.add(label)
    la202 = [f for f in result.findings if f.code == "LA202"]
    if kind == "buggy":
        assert differing
        [finding] = la202
        assert {point_label(p) for p in finding.points} == differing
    else:
        assert not differing and la202 == []


def test_finding_names_both_sides() -> None:
    result, _ = audited(FIXTURES["buggy"])
    [finding] = [f for f in result.findings if f.code == "LA202"]
    assert finding.location.path.endswith("backends/mla/flashmla_sparse.py")
    data = finding.facts
    assert (data.view, data.page, data.block_size) == (9664, 10496, 16)
    assert (data.view_per_token, data.page_per_token) == (604, 656)
    text = finding.message
    assert (
        "FlashMLASparseBackend.get_kv_cache_shape(7, 16, 1, 576, cache_dtype_str='fp8_ds_mla')"
        in text
    )
    assert "= (7, 16, 604) of uint8" in text
    assert "self.block_size * 656" in text
    assert "GPUModelRunner._reshape_kv_cache_tensors" in text
    assert {p["cache_dtype"] for p in finding.points} == {"fp8_ds_mla"}
    assert finding.host.bytes_per_token == 604 and finding.device.bytes_per_token == 656


def test_summary_says_how_many_views_were_compared() -> None:
    result, views = audited(FIXTURES["fixed"])
    [summary] = [o.summary for o in result.stages if isinstance(o, VllmOutcome)]
    assert summary.endswith(
        f"4 attention backends, 1 runner view: 44 of {len(views)} views compared"
    )
    assert len(views) == 44  # GQA: flash at 12 points; MLA: 2 generic at 12, sparse at 8


def test_examples_are_the_fixtures_verbatim() -> None:
    for tree, root in ((VIEW_BUGGY, FIXTURES["buggy"]), (VIEW_FIXED, FIXTURES["fixed"])):
        on_disk = {
            str(p.relative_to(root)): p.read_text()
            for p in root.rglob("*.py")
            if "__pycache__" not in p.parts
        }
        assert tree == on_disk


# ---- pairing: which backends serve a point ----------------------------------------------------

SPEC = VIEW_FIXED["vllm/v1/kv_cache_interface.py"]


def _tree(backends: str, runner_extra: str = "") -> dict[str, str]:
    tree = dict(VIEW_FIXED)
    for path in list(tree):
        if path.startswith("vllm/v1/attention/backends/") and not path.endswith("__init__.py"):
            del tree[path]
    tree["vllm/attention/selector.py"] = ""
    tree["vllm/v1/attention/backends/mine.py"] = backends
    return tree


def _views(tmp_path: Path, tree: dict[str, str]) -> list[ViewOutcome]:
    return audited(write_tree(tmp_path, tree))[1]


def test_declared_is_mla_and_cache_dtypes_decide_pairing(tmp_path) -> None:
    backends = """
        class Latent:
            supported_kv_cache_dtypes = ["auto"]

            @classmethod
            def is_mla(cls):
                return True

            @classmethod
            def supports_kv_cache_dtype(cls, kv_cache_dtype):
                return kv_cache_dtype in cls.supported_kv_cache_dtypes

            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                # uses the heads argument, yet says it is MLA: the declaration wins
                return (num_blocks, block_size, num_kv_heads * head_size)
    """
    views = _views(tmp_path, _tree(backends))
    assert views and {v.values["use_mla"] for v in views} == {True}
    assert {v.values["cache_dtype"] for v in views} == {"auto"}


def test_without_is_mla_a_shape_ignoring_heads_is_mla(tmp_path) -> None:
    backends = """
        class Latent:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, head_size)


        class Heads:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (2, num_blocks, block_size, num_kv_heads, head_size)
    """
    views = _views(tmp_path, _tree(backends))
    assert {(v.backend.name, v.values["use_mla"]) for v in views} == {
        ("Latent", True),
        ("Heads", False),
    }
    # each serves only its kind, and agrees with it; but no backend names the packed
    # fp8_ds_mla rows the MLA spec counts (656 B): the generic latent view is 576 B there
    differing = {
        (v.backend.name, v.values["cache_dtype"]) for v in views if v.view_bytes != v.spec_page
    }
    assert differing == {("Latent", "fp8_ds_mla")}


def test_a_packed_format_is_served_only_by_backends_naming_it(tmp_path) -> None:
    backends = """
        class Generic:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, head_size)


        class Packed:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                if cache_dtype_str == "fp8_ds_mla":
                    return (num_blocks, block_size, 656)
                return (num_blocks, block_size, head_size)
    """
    views = _views(tmp_path, _tree(backends))
    packed = {v.backend.name for v in views if v.values["cache_dtype"] == "fp8_ds_mla"}
    assert packed == {"Packed"}
    assert {v.backend.name for v in views} == {"Generic", "Packed"}


def test_a_backend_a_layer_names_as_its_own_is_not_paired(tmp_path) -> None:
    backends = """
        class IndexerBackend:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, 132)


        class IndexerCache:
            def get_kv_cache_spec(self, vllm_config):
                return None

            def get_attn_backend(self):
                return IndexerBackend


        class Profiler:  # not a layer: holding a backend does not make it anyone's own
            def __init__(self, backend=Generic):
                self.backend = backend
    """
    tree = _tree(
        textwrap.dedent(backends).replace(
            "class IndexerBackend",
            "from vllm.v1.attention.backends.generic import Generic\n\n\nclass IndexerBackend",
            1,
        )
    )
    tree["vllm/v1/attention/backends/generic.py"] = """
        class Generic:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, head_size)
    """
    result, views = audited(write_tree(tmp_path, tree))
    assert not result.errors
    [outcome] = [o for o in result.stages if isinstance(o, VllmOutcome)]
    assert outcome.backends == 2  # both found; the indexer's is its layer's alone
    assert {v.backend.name for v in views} == {"Generic"}


def test_a_refusing_shape_or_runner_is_never_a_finding(tmp_path) -> None:
    backends = """
        class Odd:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, unknown_helper(head_size))
    """
    result, views = audited(write_tree(tmp_path, _tree(backends)))
    assert views and all(v.view_bytes is None for v in views)
    assert not [f for f in result.findings if f.code == "LA202"]
    reasons = [u for u in result.unresolved if u.subject.startswith("KV view of")]
    assert reasons and "unknown_helper" in reasons[0].unknown.reason


def test_view_pins_must_name_a_field() -> None:
    table = bundled_table()
    table["view-pins"] = {"kernel_block_size": "block_sizes"}
    with pytest.raises(ConfigError, match="vllm.view-pins.kernel_block_size"):
        load_pack(table)


OWNERSHIP = {
    "get_attn_backend": (
        "",
        "\n            def get_attn_backend(self):\n                return IndexerBackend\n",
    ),
    "self_attribute": (
        "\n            def __init__(self):\n                self.attn_backend = IndexerBackend\n",
        "",
    ),
    "class_attribute": ("\n            backend_cls = IndexerBackend\n", ""),
    "parameter_default": (
        "\n            def __init__(self, backend_cls=IndexerBackend):\n"
        "                self.backend_cls = backend_cls\n",
        "",
    ),
}


def _own_cache_tree(row: int, idiom: str = "get_attn_backend") -> dict[str, str]:
    head, tail = OWNERSHIP[idiom]
    backends = f"""
        import torch

        from vllm.v1.kv_cache_interface import MLAAttentionSpec


        class IndexerBackend:
            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                return (num_blocks, block_size, {row})


        class IndexerCache:{head}
            def get_kv_cache_spec(self, vllm_config):
                return MLAAttentionSpec(
                    block_size=vllm_config.cache_config.block_size,
                    num_kv_heads=1,
                    head_size=132,
                    dtype=torch.uint8,
                )
{tail}
    """
    tree = _tree(backends)
    tree["vllm/v1/attention/backends/generic.py"] = VIEW_FIXED[
        "vllm/v1/attention/backends/flash_attn.py"
    ]
    return tree


@pytest.mark.parametrize("idiom", sorted(OWNERSHIP))
def test_a_layer_naming_its_backend_is_viewed_by_it_alone(tmp_path, idiom: str) -> None:
    result, views = audited(write_tree(tmp_path / "agree", _own_cache_tree(132, idiom)))
    own = [v for v in views if v.layer.where.endswith("IndexerCache.get_kv_cache_spec")]
    assert own and {v.backend.name for v in own} == {"IndexerBackend"}
    assert all(v.view_bytes == v.spec_page for v in own)
    # the runner's own layer specs are the selector's: never viewed by the indexer's backend
    assert "IndexerBackend" not in {v.backend.name for v in views if v not in own}
    assert not [f for f in result.findings if f.code == "LA202"]
    result, _ = audited(write_tree(tmp_path / "differ", _own_cache_tree(128, idiom)))
    [finding] = [f for f in result.findings if f.code == "LA202"]
    assert (finding.facts.view_per_token, finding.facts.page_per_token) == (128, 132)


def test_an_impl_refusing_other_cache_dtypes_narrows_the_backend(tmp_path) -> None:
    backends = """
        class PackedImpl:
            def __init__(self, num_heads, head_size, kv_cache_dtype):
                if kv_cache_dtype != "fp8_ds_mla":
                    raise NotImplementedError("needs the packed layout")


        class Packed:
            @staticmethod
            def get_impl_cls():
                return PackedImpl

            @staticmethod
            def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
                # packed rows whatever it is told: the layer rewrites the dtype for it
                if cache_dtype_str in ("auto", "fp8_ds_mla"):
                    return (num_blocks, block_size, 656)
                return (num_blocks, block_size, head_size)
    """
    result, views = audited(write_tree(tmp_path, _tree(backends)))
    assert views and {v.values["cache_dtype"] for v in views} == {"fp8_ds_mla"}
    assert not [f for f in result.findings if f.code == "LA202"]


RUNNER = "vllm/v1/worker/gpu_model_runner.py"


def test_a_shape_probe_is_not_a_view_and_an_unreached_view_is_said(tmp_path) -> None:
    tree = dict(VIEW_FIXED)
    runner = tree[RUNNER]
    # the runner's view only for a cache dtype no point has; a probe of the block dimension
    tree[RUNNER] = runner.replace(
        "                if isinstance(kv_cache_spec, AttentionSpec):\n",
        '                if self.cache_config.cache_dtype == "nvfp4":\n',
    ) + (
        "\n    def _block_dim(self, kv_cache_spec, attn_backend):\n"
        "        shape = attn_backend.get_kv_cache_shape(\n"
        "            1234, kv_cache_spec.block_size, kv_cache_spec.num_kv_heads,\n"
        "            kv_cache_spec.head_size,\n"
        "        )\n"
        "        return shape.index(1234)\n"
    )
    result, views = audited(write_tree(tmp_path, tree))
    [outcome] = [o for o in result.stages if isinstance(o, VllmOutcome)]
    assert outcome.view_sites == 1  # the probe is not a view
    assert views and not any(v.reached for v in views)
    assert outcome.summary.endswith("4 attention backends, 1 runner view")
    [said] = [u for u in result.unresolved if u.subject.startswith("KV views in")]
    assert "_reshape_kv_cache_tensors" in said.subject
    assert "at every config point" in said.unknown.reason


def test_json_summary_says_what_the_vllm_stage_compared() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "auditor", str(FIXTURES["buggy"]), "--no-cache"]
        + ["--output-format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    stage = json.loads(done.stdout)["summary"]["stages"]["vllm"]
    assert stage["views_compared"] == stage["views_reached"] == 44
    assert (stage["attention_backends"], stage["runner_views"]) == (4, 1)
    assert stage["summary"].endswith("44 of 44 views compared")


# ---- a second review's trees (tests/data/vllm_views: files replacing or added to the fixed
# fixture), each wrong before its mend: (LA202 findings as (view, page) B/token, views not
# compared)
REVIEWED = REPO / "tests" / "data" / "vllm_views"
REVIEW = {
    # a shape raising at some points (block sizes, cache dtypes) refused them: was a crash
    "shape_refuses_a_point": ([], 0),
    # a model layer holding FlashAttention, which the selector's registry names by import
    # path: it still serves every other layer
    "layer_holds_a_selector_backend": ([(2048, 4096)], 0),
    # a profiler's `backend=FlashAttentionBackend` is not a layer's own
    "profiler_holds_a_backend": ([(2048, 4096)], 0),
    # `supports_kv_cache_dtype` asks the platform: the pairs are counted and listed
    "undecidable_cache_dtype_support": ([], 12),
    # names the runner holds are held in its own frame only, not in the backend's
    "shape_reassigns_num_blocks": ([], 0),
    # the block count is held where it is computed; the runner's kernel split then applies
    "runner_splits_blocks_in_place": ([], 0),
    # `num_blocks: int = raw // page` (the V2 runner without cache_dtype_str, as 0.14)
    "annotated_block_count": ([(576, 656)], 0),
    # a block count the audit does not recognise: the views are unknown and listed
    "divmod_block_count": ([], 44),
    # the heads argument used before the return: not an MLA shape
    "heads_used_before_return": ([(2048, 4096)], 0),
    # overrides delegating to super(): both found
    "subclass_delegates_to_super": ([(2048, 4096), (6144, 4096)], 0),
    # `!= "auto"` in a shape names what it refuses, not a packed format of its own
    "refusing_literal_is_not_a_format": ([(2048, 4096)], 0),
    # a subclass of a subclass, in a third file
    "grandchild_backend": ([(2112, 2048)], 0),
    # a hidden-state cache layer holding its own backend: not paired with attention layers
    "hidden_state_cache_backend": ([], 0),
}


def _reviewed(name: str) -> dict[str, str]:
    tree = dict(VIEW_FIXED)
    root = REVIEWED / name
    for path in root.rglob("*.py"):
        tree[str(path.relative_to(root))] = path.read_text()
    return tree


@pytest.mark.parametrize("name", sorted(REVIEW))
def test_reviewed_trees(tmp_path, name: str) -> None:
    findings, uncompared = REVIEW[name]
    result, views = audited(write_tree(tmp_path, _reviewed(name)))
    assert not result.errors
    reported = sorted(
        (f.facts.view_per_token, f.facts.page_per_token)
        for f in result.findings
        if f.code == "LA202"
    )
    assert reported == sorted(findings)
    reached = [v for v in views if v.reached]
    assert sum(1 for v in reached if v.view_bytes is None) == uncompared
    listed = [u for u in result.unresolved if u.subject.startswith("KV view")]
    assert bool(listed) == bool(uncompared)


SPLIT = """
                    if group_id < len(kernel_block_sizes):
                        kernel_block_size = kernel_block_sizes[group_id]
                        num_blocks *= kv_cache_spec.block_size // kernel_block_size
                    else:
                        kernel_block_size = kv_cache_spec.block_size{extra}
                    kv_cache_shape = attn_backend.get_kv_cache_shape(
                        num_blocks,
                        kernel_block_size,"""


@pytest.mark.parametrize(
    ("extra", "compared"), [("", True), ("\n                        num_blocks += 1", False)]
)
def test_an_undecided_kernel_split_with_equal_branches_is_followed(tmp_path, extra, compared):
    """0.22's V2 runner splits blocks only for the groups it has kernel sizes for: with the
    kernel block size held at the spec's, both branches give the same count (followed);
    branches giving different counts stay undecided (listed, not compared)."""
    tree = dict(VIEW_FIXED)
    runner = tree[RUNNER].replace(
        "def _reshape_kv_cache_tensors(self, kv_cache_config, kv_cache_raw_tensors):",
        "def _reshape_kv_cache_tensors(self, kv_cache_config, kv_cache_raw_tensors, "
        "kernel_block_sizes, group_id):",
    )
    old = """
                    kv_cache_shape = attn_backend.get_kv_cache_shape(
                        num_blocks,
                        kv_cache_spec.block_size,"""
    assert old in runner
    tree[RUNNER] = runner.replace(old, SPLIT.format(extra=extra))
    result, views = audited(write_tree(tmp_path, tree))
    assert views and not result.errors
    assert all((v.view_bytes is not None) == compared for v in views if v.reached)
    if compared:
        assert all(v.view_bytes == v.spec_page for v in views)
