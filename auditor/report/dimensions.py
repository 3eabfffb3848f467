"""The model dimensions behind a finding's figures: the config values its evaluation read but
did not vary (`head_num=8`, `kv_lora_rank=512`), which a finding's varied config point leaves
out, yet the bytes depend on them; and the platform its device pool was evaluated on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.checks.findings import Finding
    from auditor.result import AuditResult


def _evaluations(result: AuditResult, finding: Finding) -> list:
    """The evaluations of the finding's pools (its device, and its host if it names one)."""
    host = finding.host.class_name if finding.host is not None else None
    device = finding.device.class_name if finding.device is not None else None
    if device is None:
        return []
    return [
        evaluation
        for evaluation in result.evaluations
        if evaluation.device.name == device
        and evaluation.points
        and (host is None or (evaluation.host is not None and evaluation.host.name == host))
    ]


def model_dimensions(result: AuditResult, finding: Finding) -> dict[str, Any]:
    """Numbers the finding's pools read at its first config point, by name; {} if none."""
    from auditor.evaluation.matrix import json_value  # (a finding's pools were evaluated)

    found: dict[str, Any] = {}
    for evaluation in _evaluations(result, finding):
        values = evaluation.points[0].values
        for name in sorted(evaluation.reads - set(evaluation.varied)):
            value = values.get(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found.setdefault(name, json_value(value))
    return dict(sorted(found.items()))


def describe(dimensions: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value}" for name, value in dimensions.items())


def platform(result: AuditResult, finding: Finding) -> dict[str, Any] | None:
    """`{"name": "npu", "values": {...}}`: the platform the finding's device pool was evaluated
    on (`[platforms.<name>]`) and the values of it the code read without varying them (a varied
    one is in the finding's config point); None for a pool of no listed platform."""
    from auditor.evaluation.matrix import json_value

    for evaluation in _evaluations(result, finding):
        if evaluation.platform is None:
            continue
        name, dimensions = evaluation.platform
        values = evaluation.points[0].values
        read = [d for d in dimensions if d in evaluation.reads and d not in evaluation.varied]
        return {"name": name, "values": {d: json_value(values.get(d)) for d in sorted(read)}}
    return None


def describe_platform(found: dict[str, Any]) -> str:
    values = found["values"]
    return found["name"] + (f" ({describe(values)})" if values else "")
