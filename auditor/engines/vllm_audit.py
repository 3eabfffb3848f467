"""The vLLM engine's stage of an audit: find spec classes and their sites, evaluate, check.

Runs only when the tree defines KV spec classes (a class with a `page_size_bytes` property),
so an SGLang tree's audit is unchanged. One call from `pipeline.audit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from auditor.checks import la201_recomputed_page_mismatch as la201
from auditor.checks.findings import Finding
from auditor.engines.vllm import (
    SpecEvaluator,
    SpecRow,
    defines_specs,
    spec_classes,
    spec_rows,
    spec_sites,
)
from auditor.engines.vllm_pack import load_pack
from auditor.frontend.index import ModuleInfo, ProjectIndex
from auditor.frontend.parse import ParsedModule
from auditor.interpret.values import Unknown
from auditor.limits import Limits
from auditor.settings import Settings


@dataclass
class VllmOutcome:
    findings: list[Finding] = field(default_factory=list)
    unresolved: list[tuple[str, Unknown]] = field(default_factory=list)
    rows: list[SpecRow] = field(default_factory=list)
    specs: int = 0
    sites: int = 0
    points: int = 0


def audit_vllm(
    data_by_path: dict[str, bytes],
    parsed: list[ParsedModule],
    index: ProjectIndex,
    settings: Settings,
    limits: Limits,
    selected: set[str],
) -> VllmOutcome | None:
    """The vLLM result, or None when the tree defines no KV spec class."""
    spec_files = [m for m in parsed if defines_specs(data_by_path.get(m.display_path, b""))]
    if not spec_files:
        return None
    spec_modules = _indexed(index, spec_files)
    specs = spec_classes(index, spec_modules)
    if not specs:
        return None
    pack = load_pack(settings)
    names = sorted({cls.name for cls in specs})
    called = re.compile(rb"\b(?:" + b"|".join(n.encode() for n in names) + rb")\s*\(")
    site_files = [m for m in parsed if called.search(data_by_path.get(m.display_path, b""))]
    sites = spec_sites(index, _indexed(index, site_files), specs, pack.other_platforms)
    outcome = VllmOutcome(specs=len(specs), sites=len(sites))
    results = SpecEvaluator(index, pack, limits, specs).evaluate(sites)
    outcome.points = sum(1 for r in results for _ in r.points)
    outcome.rows = spec_rows(results)
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
                    one_line = Unknown(" ".join(unknown.reason.split()), unknown.location)
                    outcome.unresolved.append((subject, one_line))
    if la201.CODE in selected:
        outcome.findings.extend(la201.check(results, specs, pack))
    return outcome


def _indexed(index: ProjectIndex, modules: list[ParsedModule]) -> list[ModuleInfo]:
    found = []
    for parsed in modules:
        module = index.module_for(parsed)
        if module is not None:
            found.append(module)
    return found
