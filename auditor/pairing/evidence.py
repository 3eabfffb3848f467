"""A pair, and the evidence that pairs its host with its device, kept once as typed fields.

Users read the evidence as one line (`--show-pairs`, `pairing:` in findings, the table) and
programs read it as data (`pairing_evidence` in JSON, SARIF); both are rendered from the same
fields (`Evidence.text()`, `Evidence.as_json()`), so they cannot say different things.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.frontend.index import ClassInfo
from auditor.location import Location

if TYPE_CHECKING:
    from auditor.pairing.sites import ConstructionSite

# How a pair was decided (Evidence.kind)
CONFIGURED = "configured"  # [tool.layout-audit.pairs]
CALL_SITE = "call site"  # a call that builds the host with the device pool
BUFFER_INFO = "buffer info"  # a call that builds the host with a record read off the device
ANNOTATION = "annotation"  # the device parameter's type (no call site in the audited paths)
DECLARED = "declared"  # a device pool's declarations in data (declared.py)
SIBLING = "sibling"  # two device pools one function builds from the same arguments (siblings.py)


@dataclass(frozen=True)
class Evidence:
    """Why a host is paired with a device: which mechanism decided it and what it read."""

    kind: str  # one of the kinds above
    location: Location | None = None  # the call site; for a declaration, where it is made
    function: str | None = None  # the function holding the call ("<module>" at top level)
    how: str | None = None  # how the call names the host class ("direct call", ...)
    device_argument: str | None = None  # the expression passed for the device pool
    record: str | None = None  # buffer info: the record argument, `buffer_info=pool.info()`
    guards: tuple[str, ...] = ()  # isinstance facts on the device expression, as described
    declared: str | None = None  # the declared type of the device expression, and whence
    arguments: tuple[str, ...] = ()  # host parameters the call passes, sorted
    annotation: str | None = None  # what the host's parameter type says (its devices)
    note: str | None = None  # how the call's arguments are followed, or why they are not
    declared_by: str | None = None  # declared: the declaring method, `Pool.host_pool_decls()`

    @classmethod
    def configured(cls) -> Evidence:
        return cls(CONFIGURED)

    @classmethod
    def by_annotation(cls, annotation: str) -> Evidence:
        return cls(ANNOTATION, annotation=annotation)

    @classmethod
    def by_declaration(cls, declared_by: str, where: Location) -> Evidence:
        return cls(DECLARED, location=where, declared_by=declared_by)

    def where(self) -> str:
        location = self.location
        return f"{location.path}:{location.line}" if location is not None else "?"

    def text(self) -> str:
        """The evidence as one line, as users read it."""
        if self.kind == CONFIGURED:
            return "configured in [tool.layout-audit.pairs]"
        if self.kind == ANNOTATION:
            return f"{self.annotation} (no construction site in the audited paths)"
        if self.kind == DECLARED:
            return f"declared by {self.declared_by} at {self.where()}"
        if self.kind == SIBLING:
            return f"siblings: call site {self.where()} in {self.function}(); {self.note}"
        if self.kind == BUFFER_INFO:
            parts = [f"buffer info via call site {self.where()}", str(self.record)]
        else:
            parts = [f"call site {self.where()}"]
        if self.how != "direct call":
            parts.append(str(self.how))
        if self.guards:
            parts.append("guards: " + ", ".join(self.guards))
        if self.declared:
            parts.append(f"declared: {self.declared}")
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)

    def as_json(self) -> dict[str, Any]:
        """The evidence as data (`pairing_evidence`). A declaration has none to give yet: its
        text says it all."""
        if self.kind == CONFIGURED:
            return {"kind": CONFIGURED}
        if self.kind == ANNOTATION:
            return {"kind": ANNOTATION, "annotation": self.annotation}
        if self.kind == DECLARED:
            return {}
        location = self.location
        assert location is not None
        data: dict[str, Any] = {
            "kind": self.kind,
            "site": {
                "path": location.path,
                "line": location.line,
                "column": location.column,
                "function": self.function,
                "how": self.how,
            },
            "device_argument": self.device_argument,
            "guards": list(self.guards),
            "declared": self.declared,
            "arguments": list(self.arguments),
        }
        if self.annotation is not None:
            data["annotation"] = self.annotation
        return data


@dataclass(frozen=True)
class Pair:
    """A host pool paired with a device pool it receives, and why."""

    host: ClassInfo
    device: ClassInfo
    evidence: Evidence
    site: ConstructionSite | None = None  # the call that builds the host, when there is one
