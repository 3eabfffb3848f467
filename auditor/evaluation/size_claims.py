"""What a host pool says it holds per token: an attribute its engine names (engines/).

Host pools may budget their memory and stride their copies from a figure of their own, written
separately from the buffers they allocate (each engine's `SizeClaim`). It is read off each built
host, like a buffer, and turned into bytes per token per layer using the host's own layer count,
so LA002 can compare it with the device buffers the host mirrors.
"""

from __future__ import annotations

from auditor.engines import SizeClaim, size_claims
from auditor.evaluation.measure import BufferFigure, count_of
from auditor.frontend.index import ClassInfo
from auditor.interpret.values import Instance, Unknown, is_unknown
from auditor.location import Location


def claim_location(host_cls: ClassInfo, builds: list, claim: SizeClaim) -> Location:
    """Where the figure is written: the claim's method in force, else the assignment."""
    method = host_cls.find_method(claim.method) if claim.method else None
    if method is not None:
        return method.module.parsed.location(method.node.name)
    return builds[0][0].set_sites.get(claim.attribute) or host_cls.location


def claimed_size(builds: list, host_cls: ClassInfo, layer_names: list[str]) -> BufferFigure | None:
    """The claim as bytes per token per layer (+ per token), from builds at two layer counts;
    None when the host states no size per token (the first engine claim every build sets)."""
    instances = [instance for instance, _, _ in builds if isinstance(instance, Instance)]
    if len(instances) != len(builds):
        return None
    claim = next((c for c in size_claims() if all(c.attribute in i.attrs for i in instances)), None)
    if claim is None:
        return None
    name = claim.attribute
    location = claim_location(host_cls, builds, claim)
    values = [i.attrs[name] for i in instances]
    unknown = next((v for v in values if is_unknown(v)), None)
    if unknown is not None:
        return BufferFigure(name, location, unknown=unknown)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return BufferFigure(
            name, location, unknown=Unknown("size per token is not an integer", location)
        )
    layers = [count_of(i, layer_names, given) for i, (_, _, given) in zip(instances, builds)]
    pairs = sorted(set(zip(layers, values)))
    if len({layer for layer, _ in pairs}) != len(pairs) or len(pairs) < 2:
        return BufferFigure(
            name,
            location,
            unknown=Unknown("size per token did not follow the layer count", location),
        )
    (l1, v1), (l2, v2) = pairs[0], pairs[1]
    if (v2 - v1) % (l2 - l1):
        return BufferFigure(
            name, location, unknown=Unknown("size per token is not linear in layers", location)
        )
    per_layer = (v2 - v1) // (l2 - l1)
    per_token = v1 - per_layer * l1
    if any(v != per_layer * layer + per_token for layer, v in pairs):
        return BufferFigure(
            name, location, unknown=Unknown("size per token is not linear in layers", location)
        )
    text = f"{per_layer} B/token/layer" + (f" + {per_token} B/token" if per_token else "")
    return BufferFigure(
        name,
        location,
        bytes_per_token_per_layer=per_layer,
        bytes_per_token=per_token,
        arithmetic=f"{name} = {v1} B/token at {l1} layers, {v2} at {l2} = {text}",
    )
