"""Config matrix: which constructor parameters vary, over which values, and the points to try.

Only parameters that the pool's construction actually reads are varied; the set grows as new
branches are reached, up to `Limits.max_config_points`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import libcst as cst

from auditor.dtypes import dtype_by_name, dtype_name, is_dtype
from auditor.frontend.index import ClassInfo
from auditor.interpret.environment import flag_dimension, switch_dimension
from auditor.settings import Settings


@dataclass(frozen=True)
class Dimension:
    name: str
    values: tuple[Any, ...]


def constructor_parameters(cls: ClassInfo) -> list[cst.Param]:
    init = cls.find_method("__init__")
    if init is None:
        return []
    params = init.node.params
    ordered = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    return ordered[1:] if ordered and ordered[0].name.value in ("self", "cls") else ordered


def parameter_names(cls: ClassInfo) -> list[str]:
    return [p.name.value for p in constructor_parameters(cls)]


def _is_dtype_parameter(param: cst.Param, code: Callable[[cst.CSTNode], str]) -> bool:
    if param.annotation is not None:
        text = code(param.annotation.annotation).replace(" ", "")
        if text.endswith("torch.dtype") or text.endswith("torch.dtype]"):
            return True
    if param.default is not None:
        text = code(param.default).strip()
        return text.startswith("torch.") and dtype_by_name(text) is not None
    return False


def runtime_dimension(getter: str, attribute: str) -> str:
    """The config dimension of a runtime value: `get_parallel().attn_dcp_size`."""
    return f"{getter}().{attribute}"


def dimensions(classes: list[ClassInfo], settings: Settings) -> dict[str, Dimension]:
    """Every parameter of the constructors that the rule packs give values for, and every
    probe and switch (varied, like the rest, only once the code reads them)."""
    found: dict[str, Dimension] = {}
    for probe, flag_values in settings.flags.items():
        found[flag_dimension(probe)] = Dimension(flag_dimension(probe), tuple(flag_values))
    for getter, attributes in settings.runtime.items():
        for attribute, runtime_values in attributes.items():
            name = runtime_dimension(getter, attribute)
            found[name] = Dimension(name, tuple(runtime_values))
    for variable, texts in settings.switches.items():
        found[switch_dimension(variable)] = Dimension(switch_dimension(variable), tuple(texts))
    fixed = (
        set(settings.token_params)
        | set(settings.layer_params)
        | set(settings.device_pool_params)
        | set(settings.buffer_info_params)
    )
    for cls in classes:
        code = cls.module.parsed.code
        for param in constructor_parameters(cls):
            name = param.name.value
            if name in fixed or name in found:
                continue
            if name in settings.matrix:
                found[name] = Dimension(name, tuple(settings.matrix[name]))
            elif settings.default_dtypes and _is_dtype_parameter(param, code):
                found[name] = Dimension(name, tuple(settings.default_dtypes))
    return found


def describe_value(value: Any) -> str:
    return dtype_name(value) if is_dtype(value) else str(value)


def json_value(value: Any) -> Any:
    return dtype_name(value) if is_dtype(value) else value


def explore(
    dims: dict[str, Dimension],
    evaluate: Callable[[dict[str, Any]], set[str]],
    max_points: int,
) -> tuple[list[dict[str, Any]], list[str], bool]:
    """Evaluate points, varying only the dimensions that evaluation reported reading.

    `evaluate(values)` runs one point and returns the names it read. Returns the points
    evaluated, the dimensions varied in the end, and whether `max_points` cut the search short.
    """
    base = {name: dim.values[0] for name, dim in dims.items()}
    varied: list[str] = []
    evaluated: dict[tuple, dict[str, Any]] = {}
    while True:
        grew = False
        for combo in itertools.product(*(dims[name].values for name in varied)):
            key = tuple(combo)
            if key in evaluated:
                continue
            if len(evaluated) >= max_points:
                return list(evaluated.values()), varied, True
            values = dict(base)
            values.update(zip(varied, combo))
            evaluated[key] = values
            reads = evaluate(values)
            new = sorted(
                n for n in dims if n in reads and n not in varied and len(dims[n].values) > 1
            )
            if new:
                varied.extend(new)
                evaluated = {tuple(v[n] for n in varied): v for v in evaluated.values()}
                grew = True
                break
        if not grew:
            return list(evaluated.values()), varied, False
