"""The `[vllm]` table of a rule pack, checked: model shapes, matrix, reads, fixed values.

A bad key or value is a ConfigError naming the file and the key, as for every other table.
"""

from __future__ import annotations

import sys
from typing import Any

from auditor.engines.base import RULES_DIR, ConfigError
from auditor.engines.vllm_specs import VllmPack

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_KEYS = {
    "config-getters",
    "other-platforms",
    "mla-layers",
    "view-pins",
    "non-mla-layers",
    "models",
    "matrix",
    "reads",
    "fixed",
    "unset",
    "source",
}


def bundled_table() -> dict[str, Any]:
    """The bundled pack's `[vllm]` table (auto-detection uses it when no pack names vLLM)."""
    path = RULES_DIR / "vllm.toml"
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the bundled vLLM pack: {error}") from None
    return {**data.get("vllm", {}), "source": str(path)}


def load_pack(table: dict[str, Any]) -> VllmPack:
    """The vLLM pack of this `[vllm]` table (merged over the packs), or the bundled one."""
    table = table if table else bundled_table()
    source = str(table.get("source", "vllm"))
    for key in table:
        if key not in _KEYS:
            raise ConfigError(f"{source}: unknown key 'vllm.{key}'")
    models = table.get("models", [])
    if not isinstance(models, list) or not models or not all(isinstance(m, dict) for m in models):
        raise ConfigError(f"{source}: vllm.models must be a non-empty array of tables")
    matrix: dict[str, list[Any]] = {}
    for name, values in _table(table, "matrix", source).items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{source}: vllm.matrix.{name} must be a non-empty list")
        matrix[name] = [_value(v, f"{source}: vllm.matrix.{name}") for v in values]
    reads = {}
    for path, dimension in _table(table, "reads", source).items():
        if not isinstance(dimension, str):
            raise ConfigError(f"{source}: vllm.reads.{path} must name a dimension")
        reads[path] = dimension
    fixed: dict[str, Any] = {}
    for path, value in _table(table, "fixed", source).items():
        fixed[path] = _value(value, f"{source}: vllm.fixed.{path}")
        reads[path] = path
    unset = _table(table, "unset", source).get("paths", [])
    if not isinstance(unset, list) or not all(isinstance(p, str) for p in unset):
        raise ConfigError(f"{source}: vllm.unset.paths must be a list of paths")
    for path in unset:
        fixed[path] = None
        reads[path] = path
    dimensions = set(matrix) | {k for m in models for k in m} | set(fixed)
    for path, dimension in reads.items():
        if dimension not in dimensions:
            raise ConfigError(f"{source}: vllm.reads.{path}: no dimension {dimension!r}")
    return VllmPack(
        models=[{k: _value(v, f"{source}: vllm.models") for k, v in m.items()} for m in models],
        matrix=matrix,
        reads=reads,
        fixed=fixed,
        mla_layers=_names(table, "mla-layers", source),
        non_mla_layers=_names(table, "non-mla-layers", source),
        other_platforms=_names(table, "other-platforms", source),
        config_getters=_names(table, "config-getters", source),
        view_pins=_view_pins(table, source, dimensions),
    )


def _view_pins(table: dict, source: str, dimensions: set[str]) -> dict[str, str]:
    """`name = "spec.<field>"` (a field of the layer's spec) or `name = "<dimension>"`."""
    pins = _table(table, "view-pins", source)
    for name, held in pins.items():
        if not isinstance(held, str) or not (held.startswith("spec.") or held in dimensions):
            raise ConfigError(
                f'{source}: vllm.view-pins.{name} must be "spec.<field>" or a dimension'
            )
    return pins


def _table(table: dict, key: str, source: str) -> dict:
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: vllm.{key} must be a table")
    return value


def _names(table: dict, key: str, source: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: vllm.{key} must be a list of class names")
    return value


def _value(value: Any, where: str) -> Any:
    """A pack value: a "torch.<dtype>" text becomes the real dtype."""
    if isinstance(value, str) and value.startswith("torch."):
        from auditor.dtypes import dtype_by_name

        dtype = dtype_by_name(value)
        if dtype is None:
            raise ConfigError(f"{where}: unknown torch dtype {value!r}")
        return dtype
    if isinstance(value, list) and all(isinstance(v, (str, int, float, bool)) for v in value):
        return tuple(value)  # a list the code reads whole (no layer skipped: [])
    if not isinstance(value, (str, int, float, bool)):
        raise ConfigError(f"{where}: expected a text, number, boolean or a list of them")
    return value
