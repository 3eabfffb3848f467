"""The oracle for the vLLM fixtures: run their spec code for real and compare every page.

The auditor never runs audited code; this test does (fixtures only). At every config point of
the bundled vLLM pack it runs the fixture's real model runner (`get_kv_cache_spec` with one
decoder layer of the point's shape) and its real hybrid alignment (recording each spec it
builds), with real torch dtypes, and checks that every page the auditor computed statically
equals the real `page_size_bytes`, and that LA201 shows exactly where the real pages differ.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import real_torch

from auditor.engines.vllm_pack import load_pack
from auditor.engines.vllm_specs import point_label
from auditor.pipeline import audit
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "vllm"
NAMES = sorted(
    p.name
    for p in (REPO / "fixtures").iterdir()
    if p.is_dir() and p.name.startswith("vllm_hybrid_")
)


def _purge() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@contextmanager
def imported(root: Path) -> Iterator[None]:
    """Make `root`'s `vllm` importable for real; no other `vllm` before or after."""
    _purge()
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        yield
    finally:
        sys.dont_write_bytecode = bytecode
        sys.path.remove(str(root))
        _purge()


def _config(values: dict[str, Any]) -> SimpleNamespace:
    """A VllmConfig of the point, with one decoder layer of the point's shape."""
    layer = SimpleNamespace(
        head_size=values["head_size"],
        num_kv_heads=values["num_kv_heads"],
        attn_type="decoder",
        sliding_window=None,
        kv_sharing_target_layer_name=None,
    )
    return SimpleNamespace(
        cache_config=SimpleNamespace(
            block_size=values["block_size"],
            cache_dtype=values["cache_dtype"],
            mamba_page_size_padded=None,
        ),
        model_config=SimpleNamespace(
            dtype=values["model_dtype"],
            use_mla=values["use_mla"],
            attention_chunk_size=None,
            max_model_len=values["vllm_config.model_config.max_model_len"],
            get_head_size=lambda: values["head_size"],
            get_num_kv_heads=lambda parallel: values["num_kv_heads"],
            mamba_shapes=((1, 2),),
            mamba_dtypes=(values["model_dtype"],),
        ),
        parallel_config=SimpleNamespace(),
        compilation_config=SimpleNamespace(static_forward_context={"layers.0.attn": layer}),
    )


def real_layer_spec(values: dict[str, Any]) -> tuple[Any, Any]:
    """The fixture's real model runner at this point, and the spec it builds for its one
    decoder layer."""
    runner_module = importlib.import_module("vllm.v1.worker.gpu_model_runner")
    config = _config(values)
    runner = runner_module.GPUModelRunner(config, "meta")
    config.compilation_config.static_forward_context = {
        "layers.0.attn": config.compilation_config.static_forward_context["layers.0.attn"]
    }
    # the runner's second loop (Mamba layers) reads the same context: give it none
    layers = runner_module.get_layers_from_vllm_config
    calls = iter([config.compilation_config.static_forward_context, {}])
    runner_module.get_layers_from_vllm_config = lambda cfg, kind: next(calls)
    try:
        [spec] = runner.get_kv_cache_spec().values()
    finally:
        runner_module.get_layers_from_vllm_config = layers
    return runner, spec


def real_pages(values: dict[str, Any]) -> dict[str, tuple[str, int]]:
    """{role: (spec class, bytes per token)} built for real at this point."""
    config_module = importlib.import_module("vllm.model_executor.models.config")
    _, spec = real_layer_spec(values)
    built: list[Any] = []
    originals = {}
    for name in ("FullAttentionSpec", "MLAAttentionSpec"):
        cls = getattr(config_module, name, None)
        if cls is None:
            continue
        originals[name] = cls

        def record(*args: Any, _cls: Any = cls, **kwargs: Any) -> Any:
            made = _cls(*args, **kwargs)
            built.append(made)
            return made

        setattr(config_module, name, record)
    try:
        config_module.HybridAttentionMambaModelConfig.verify_and_update_config(_config(values))
    finally:
        for name, cls in originals.items():
            setattr(config_module, name, cls)
    [recomputed] = built
    return {
        "layer": (type(spec).__name__, spec.page_size_bytes // spec.block_size),
        "recomputation": (
            type(recomputed).__name__,
            recomputed.page_size_bytes // recomputed.block_size,
        ),
    }


@pytest.mark.parametrize("name", NAMES)
def test_static_pages_equal_real_pages(name: str) -> None:
    root = REPO / "fixtures" / name
    result = audit([root], load_settings(None))
    pack = load_pack(load_settings(None).engine_tables.get("vllm", {}))
    static: dict[tuple[str, str], tuple[str, int]] = {}
    for row in result.stage_rows:
        if row.text.startswith("unresolved") or "B/token" not in row.text:
            continue
        role = "layer" if "(layer," in row.title else "recomputation"
        spec_class = row.text.split(":", 1)[0]
        per_token = int(row.text.split(": ", 1)[1].split(" B/token", 1)[0])
        static[(role, row.label)] = (spec_class, per_token)
    compared = 0
    differing = 0
    with imported(root):
        for values in pack.points():
            real = real_pages({k: real_torch(v) for k, v in values.items()})
            label = point_label(values)
            for role in ("layer", "recomputation"):
                assert static[(role, label)] == real[role], (role, label)
                compared += 1
            differing += real["layer"][1] != real["recomputation"][1]
    assert compared == 2 * len(pack.points())
    la201 = [f for f in result.findings if f.code == "LA201"]
    if name.endswith("_buggy"):
        # the bug is real, and the auditor reports exactly the points where it shows
        assert differing > 0
        assert [len(f.points) for f in la201] == [differing]
    else:
        assert differing == 0 and la201 == []
