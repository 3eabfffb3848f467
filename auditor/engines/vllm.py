"""vLLM: its rule pack (rules/vllm.toml, whose `[vllm]` table this engine reads itself) and its
own stage: find KV spec classes and their sites, evaluate each site at each point.

vLLM has no host/device pool classes (vllm_specs.py says what it has instead). The stage runs
only when the tree defines KV spec classes (a class with a `page_size_bytes` property), so an
SGLang tree's audit is unchanged. LA201 (auditor/checks/) judges the outcome.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from auditor.engines.base import Engine, Registry, StageInput, StageOutcome

if TYPE_CHECKING:  # the parts are imported when the stage runs: registering stays light
    from auditor.engines.vllm_backends import ViewOutcome
    from auditor.engines.vllm_specs import SiteResult, VllmPack
    from auditor.frontend.index import ClassInfo, ModuleInfo, ProjectIndex
    from auditor.frontend.parse import ParsedModule

_DEFINES_PAGE = re.compile(rb"def\s+page_size_bytes\b")


def defines_specs(data: bytes) -> bool:
    """From the bytes alone: may this file define a KV spec class? (The stage has work only
    in a tree where one does.)"""
    return b"page_size_bytes" in data and _DEFINES_PAGE.search(data) is not None


@dataclass
class VllmOutcome(StageOutcome):
    """The stage's outcome; `results`, `specs` and `pack` are what LA201 reads."""

    specs: int = 0
    sites: int = 0
    points: int = 0
    results: list[SiteResult] = field(default_factory=list)
    spec_classes: list[ClassInfo] = field(default_factory=list)
    pack: VllmPack | None = None
    backends: int = 0
    view_sites: int = 0
    views: list[ViewOutcome] = field(default_factory=list)  # what LA202 reads


def audit_vllm(given: StageInput) -> VllmOutcome | None:
    """The vLLM outcome, or None when the tree defines no KV spec class."""
    from auditor.engines.vllm_backends import (
        CALLS_SHAPE,
        SHAPE,
        BackendEvaluator,
        backend_classes,
        backend_roots,
        defines_backends,
        holder_pattern,
        owned_backends,
        registered_backends,
        subclass_pattern,
        view_sites,
    )
    from auditor.engines.vllm_pack import load_pack
    from auditor.engines.vllm_specs import SpecEvaluator, spec_classes, spec_rows, spec_sites
    from auditor.interpret.values import Unknown

    data_by_path, parsed, index = given.data, given.parsed, given.index
    spec_files = [m for m in parsed if defines_specs(data_by_path.get(m.display_path, b""))]
    if not spec_files:
        return None
    spec_modules = _indexed(index, spec_files)
    specs = spec_classes(index, spec_modules)
    if not specs:
        return None
    pack = load_pack(given.table)
    names = sorted({cls.name for cls in specs})
    called = re.compile(rb"\b(?:" + b"|".join(n.encode() for n in names) + rb")\s*\(")
    site_files = [m for m in parsed if called.search(data_by_path.get(m.display_path, b""))]
    sites = spec_sites(index, _indexed(index, site_files), specs, pack.other_platforms)
    results = SpecEvaluator(index, pack, given.limits, specs).evaluate(sites)
    backend_modules = _indexed(
        index, [m for m in parsed if defines_backends(data_by_path.get(m.display_path, b""))]
    )
    roots = backend_roots(backend_modules, pack.other_platforms)
    backends = list(roots)
    while True:  # subclasses, and theirs, in whatever file (by name, then by the index)
        subclassing = subclass_pattern(backends) if backends else None
        holders = [
            m
            for m in parsed
            if subclassing is not None and subclassing.search(data_by_path.get(m.display_path, b""))
        ]
        found = backend_classes(roots, _indexed(index, holders), pack.other_platforms)
        new = [b for b in found if b not in backends]
        if not new:
            break
        backends.extend(new)
    view_modules = _indexed(
        index, [m for m in parsed if CALLS_SHAPE.search(data_by_path.get(m.display_path, b""))]
    )
    views = view_sites(view_modules, backends, pack.other_platforms)
    holding = holder_pattern(backends) if backends else None
    owning = [
        m
        for m in parsed
        if holding is not None and holding.search(data_by_path.get(m.display_path, b""))
    ]
    owned = owned_backends(index, _indexed(index, owning), backends)
    registered = registered_backends(backends, list(data_by_path.values()))
    layers = [r for r in results if r.site.role == "layer"]
    evaluator = BackendEvaluator(index, pack, given.limits, specs, backends, owned, registered)
    viewed = evaluator.evaluate(layers, views)
    outcome = VllmOutcome(
        engine="vllm",
        rows=spec_rows(results),
        summary=f"{len(specs)} KV spec classes, {len(sites)} spec sites"
        + _views_summary(backends, views, viewed),
        specs=len(specs),
        sites=len(sites),
        points=sum(1 for r in results for _ in r.points),
        results=results,
        spec_classes=specs,
        pack=pack,
        backends=len(backends),
        view_sites=len(views),
        views=viewed,
        counts={
            "spec_classes": len(specs),
            "spec_sites": len(sites),
            "attention_backends": len(backends),
            "runner_views": len(views),
            "views_reached": sum(1 for v in viewed if v.reached),
            "views_compared": sum(1 for v in viewed if v.view_bytes is not None),
        },
    )
    seen: set[tuple[str, str]] = set()
    for result in results:
        for point in result.points:
            value = point.value
            if value is not None and value.unknown is not None:
                key = (str(result.site.location), value.unknown.reason)
                if key not in seen:
                    seen.add(key)
                    subject = f"KV spec {result.site.spec.name} in {result.site.where}"
                    unknown = value.unknown
                    text = " ".join(unknown.reason.split())
                    one_line = Unknown(
                        text, unknown.location, unknown.why, unknown.cause, unknown.detail
                    )
                    outcome.unresolved.append((subject, one_line))
    reached = {id(v.view) for v in viewed if v.reached}
    for view in viewed:
        if not view.reached and id(view.view) not in reached:
            reached.add(id(view.view))  # never reached at any point: said once
            subject = f"KV views in {view.view.where}"
            text = " ".join(view.unknown.reason.split()) + " (at every config point)"
            outcome.unresolved.append((subject, Unknown(text, view.view.location)))
        if view.unknown is None or not view.reached:
            continue
        method = view.backend.find_method(SHAPE)
        text = " ".join(view.unknown.reason.split())
        key = (str(view.view.location), f"{id(method)} {text}")
        if key not in seen:
            seen.add(key)
            subject = f"KV view of {view.spec_class} by {view.backend.name} in {view.view.where}"
            where = view.unknown.location or view.view.location
            outcome.unresolved.append((subject, Unknown(text, where, view.unknown.why)))
    return outcome


def _views_summary(backends: list, views: list, viewed: list[ViewOutcome]) -> str:
    """`, 9 attention backends, 1 runner view: 152 of 160 views compared` (LA202's reach)."""
    if not backends:
        return ""
    compared = sum(1 for v in viewed if v.view_bytes is not None)
    reached = sum(1 for v in viewed if v.reached)
    runner_views = f"{len(views)} runner view" + ("" if len(views) == 1 else "s")
    text = f", {len(backends)} attention backends, {runner_views}"
    return text + (f": {compared} of {reached} views compared" if reached else "")


def _indexed(index: ProjectIndex, modules: list[ParsedModule]) -> list[ModuleInfo]:
    found = []
    for parsed in modules:
        module = index.module_for(parsed)
        if module is not None:
            found.append(module)
    return found


VLLM = Engine(
    name="vllm", rule_pack="vllm", table="vllm", stage=audit_vllm, stage_files=defines_specs
)


def register(registry: Registry) -> None:
    registry.add(VLLM)
