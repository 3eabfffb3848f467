"""Build a device pool (and optionally its host mirror) at config points and measure buffers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from auditor.index import ClassInfo, ProjectIndex
from auditor.interpret.control import BudgetExceeded, Infeasible
from auditor.interpret.facades import expose_buffer_properties
from auditor.interpret.machine import ConfigPoint, Interpreter
from auditor.interpret.values import ConfigDependency, Instance, Unknown
from auditor.limits import DEFAULT_LIMITS, Limits
from auditor.matrix import dimensions, explore, parameter_names
from auditor.measure import BufferFigure, looks_like_buffer, measure
from auditor.settings import Settings
from auditor.size_claims import claimed_size


@dataclass
class PointResult:
    """What one config point gave: figures per side, or why the point was skipped."""

    values: dict[str, Any]
    device: dict[str, BufferFigure] = field(default_factory=dict)
    host: dict[str, BufferFigure] = field(default_factory=dict)
    infeasible: Infeasible | None = None
    failure: Unknown | None = None
    host_claim: BufferFigure | None = None  # the host's own size per token (size_claims.py)


@dataclass
class Evaluation:
    """A device pool, or a (device, host) pair, evaluated across its config matrix."""

    device: ClassInfo
    host: ClassInfo | None
    points: list[PointResult]
    varied: list[str]
    truncated: bool

    @property
    def feasible(self) -> list[PointResult]:
        return [p for p in self.points if p.infeasible is None and p.failure is None]


class PoolEvaluator:
    """Evaluates pools of one index under one set of settings."""

    def __init__(self, index: ProjectIndex, settings: Settings, limits: Limits = DEFAULT_LIMITS):
        self.index = index
        self.settings = settings
        self.limits = limits

    def _arguments(self, cls: ClassInfo, values: dict[str, Any], device: Instance | None) -> dict:
        kwargs: dict[str, Any] = {}
        for name in parameter_names(cls):
            if device is not None and name in self.settings.device_pool_params:
                kwargs[name] = device
            elif name in values:
                kwargs[name] = ConfigDependency(name)
        return kwargs

    def _build(self, cls: ClassInfo, interpreter: Interpreter, values, device=None) -> Instance:
        instance = interpreter.instantiate(
            cls, [], self._arguments(cls, values, device), cls.location
        )
        if isinstance(instance, Instance):
            expose_buffer_properties(interpreter, instance, looks_like_buffer)
        return instance

    def build_host(
        self, host_cls: ClassInfo, interpreter: Interpreter, values: dict, device: Instance
    ) -> Any:
        """The host side of one build (declared.py reads it off the device pool instead)."""
        return self._build(host_cls, interpreter, values, device)

    def measure_host(self, builds: list, host_cls: ClassInfo) -> dict[str, BufferFigure]:
        settings = self.settings
        return measure(builds, host_cls, settings.token_params, settings.layer_params)

    def run_point(
        self, device_cls: ClassInfo, host_cls: ClassInfo | None, values: dict
    ) -> tuple[PointResult, set[str]]:
        settings = self.settings
        (t1, t2), (l1, l2) = settings.token_counts, settings.layer_counts
        device_builds: list[tuple[Instance, int, int]] = []
        host_builds: list[tuple[Instance, int, int]] = []
        reads: set[str] = set()
        result = PointResult(values)
        t3 = t2 + (t2 - t1)  # a fifth build checks that bytes really are linear in tokens
        for tokens, layers in ((t1, l1), (t2, l1), (t1, l2), (t2, l2), (t3, l2)):
            full = dict(values)
            full.update({name: tokens for name in settings.token_params})
            full.update({name: layers for name in settings.layer_params})
            point = ConfigPoint(full)
            interpreter = Interpreter(self.index, point, self.limits)
            try:
                device = self._build(device_cls, interpreter, full)
                device_builds.append((device, tokens, layers))
                if host_cls is not None:
                    host = self.build_host(host_cls, interpreter, full, device)
                    host_builds.append((host, tokens, layers))
            except Infeasible as signal:
                result.infeasible = signal
            except BudgetExceeded as signal:
                result.failure = Unknown(signal.reason, signal.location)
            except RecursionError:
                result.failure = Unknown("audited code nests too deeply", device_cls.location)
            reads |= point.reads
            if result.infeasible is not None or result.failure is not None:
                return result, reads
        result.device = measure(
            device_builds, device_cls, settings.token_params, settings.layer_params
        )
        if host_cls is not None:
            result.host = self.measure_host(host_builds, host_cls)
            result.host_claim = claimed_size(host_builds, host_cls, settings.layer_params)
        return result, reads

    def evaluate(self, device_cls: ClassInfo, host_cls: ClassInfo | None = None) -> Evaluation:
        classes = [device_cls] + ([host_cls] if host_cls is not None else [])
        dims = dimensions(classes, self.settings)
        results: list[PointResult] = []

        def run(values: dict[str, Any]) -> set[str]:
            result, reads = self.run_point(device_cls, host_cls, values)
            results.append(result)
            return reads

        points, varied, truncated = explore(dims, run, self.limits.max_config_points)
        # `explore` may re-key points when new dimensions appear; keep the last result per point
        by_key: dict[tuple, PointResult] = {}
        for result in results:
            by_key[tuple(result.values.get(n) for n in varied)] = result

        def order(key: tuple) -> list[int]:
            return [dims[name].values.index(value) for name, value in zip(varied, key)]

        ordered = [by_key[key] for key in sorted(by_key, key=order)]
        return Evaluation(device_cls, host_cls, ordered, varied, truncated)
