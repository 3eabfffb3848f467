"""What the pair and device checks share: the device figure a host buffer is compared with, and
the wording of sizes and of the config points where a finding shows.

LA001, LA002 and LA003 use these, and so do coverage.py and the table (report/table.py), so a
host buffer is matched with its device buffer, and a condition is written, the same way
everywhere. No check imports another check.
"""

from __future__ import annotations

from typing import Any

from auditor.evaluation import buffer_roles
from auditor.evaluation.matrix import describe_value
from auditor.evaluation.measure import BufferFigure, looks_like_buffer
from auditor.settings import Settings


def device_counterpart(
    name: str,
    device: dict[str, BufferFigure],
    settings: Settings,
    host: dict[str, BufferFigure],
) -> BufferFigure | None:
    """The device figure the host buffer `name` mirrors: the device buffer of that name, or the
    rule pack's `buffer-map` entry for it summed (the first unresolved part when one is not
    known); None when the device has neither. The map is for a host that joins the device's
    buffers under another name: a host that also holds them under their own names (at this
    point, `host`) mirrors them one by one, and `name` is then another view of them (MLA's
    `page_first_kv_split` host returns its `k_buffer` as `kv_buffer`)."""
    if name in device:
        return device[name]
    mapped = settings.buffer_map.get(name)
    if not mapped or not all(n in device for n in mapped):
        if any(_named(n, device, settings) for n in host):
            # a host naming the device's buffers mirrors them by name, and the rest only where
            # the rest pair one to one by what their names hold (`k_data`, `v_data` for
            # `k_buffer`, `v_buffer` beside `k_scale`, `v_scale` of both)
            return _rest_by_role(name, device, host, settings)
        sole = _sole_storage(name, device, host)
        if sole is not None:
            return sole
        same = _same_role(name, device, host)
        return same if same is not None else _kept_whole(name, device, host)
    if all(n in host for n in mapped):
        return None
    parts = [device[n] for n in mapped]
    if not all(p.resolved for p in parts):
        return next(p for p in parts if not p.resolved)
    return _summed(mapped, parts)


def comparisons(
    host: dict[str, BufferFigure], device: dict[str, BufferFigure], settings: Settings
) -> list[tuple[str, BufferFigure, BufferFigure | None]]:
    """What is compared at one config point: each host buffer with its device counterpart
    (None: it has none); or, for a host that splits the device's one storage under other
    names (`keys` and `values` for a stacked `kv`: `_joined`), those buffers as one."""
    found = [(n, f, device_counterpart(n, device, settings, host)) for n, f in host.items()]
    if all(d is None for _, _, d in found):
        joined = _joined(host, device, settings)
        if joined is not None:
            return [(joined[0].name, joined[0], joined[1])]
    return found


def _joined(
    host: dict[str, BufferFigure], device: dict[str, BufferFigure], settings: Settings
) -> tuple[BufferFigure, BufferFigure] | None:
    """A mirror under other names that splits the device's storage: when no host buffer
    names a device buffer (nor a `buffer-map` entry), the device holds exactly one storage that
    grows with the tokens and the host two or more, the host's summed (`keys + values`) is
    its counterpart."""
    if any(_named(n, device, settings) for n in host):
        return None
    own = [figure for figure in host.values() if _grows(figure)]
    theirs = [figure for figure in device.values() if _grows(figure)]
    if len(own) < 2 or len(theirs) != 1:
        return None
    name = " + ".join(f.name for f in own)
    unknown = next((f for f in own if not f.resolved), None)
    if unknown is not None:
        return BufferFigure(name, unknown.location, unknown=unknown.unknown), theirs[0]
    total = sum(f.bytes_per_token_per_layer or 0 for f in own)
    arithmetic = " + ".join(f"{f.name} {f.bytes_per_token_per_layer}" for f in own)
    figure = BufferFigure(
        name,
        own[0].location,
        bytes_per_token_per_layer=total,
        bytes_per_token=sum(f.bytes_per_token for f in own),
        dtype=own[0].dtype,
        arithmetic=f"{arithmetic} = {total} B/token/layer ({own[0].name}: {own[0].arithmetic})",
    )
    return figure, theirs[0]


def _named(name: str, device: dict[str, BufferFigure], settings: Settings) -> bool:
    mapped = settings.buffer_map.get(name)
    return name in device or bool(mapped) and all(n in device for n in mapped)


def _grows(figure: BufferFigure) -> bool:
    """Storage that grows with tokens and layers; unresolved, a buffer by its name."""
    if not figure.resolved:
        return looks_like_buffer(figure.name)
    return bool(figure.bytes_per_token_per_layer)


def _sole_storage(
    name: str, device: dict[str, BufferFigure], host: dict[str, BufferFigure]
) -> BufferFigure | None:
    """A mirror under other names: when no host buffer names a device buffer (nor a
    `buffer-map` entry) and each side holds exactly one storage that grows with the tokens,
    those two are counterparts (MiniMax NVFP4's host keeps the device's page-row `slab` as
    `kv_buffer`). Buffers of 0 B per token per layer (a scale, a bitmap over slots) do not count."""
    own = [n for n, figure in host.items() if _grows(figure)]
    theirs = [figure for figure in device.values() if _grows(figure)]
    return theirs[0] if own == [name] and len(theirs) == 1 else None


def _kept_whole(
    name: str, device: dict[str, BufferFigure], host: dict[str, BufferFigure]
) -> BufferFigure | None:
    """A mirror keeping in one storage what the device keeps as K and V (a spill area's
    stacked `kv` beside a store's `k_cache`, `v_cache`), when no host buffer names a device
    buffer and the names say so (buffer_roles.kept_whole): the two summed are its counterpart."""
    own = [n for n, figure in host.items() if _grows(figure)]
    theirs = [n for n, figure in device.items() if _grows(figure)]
    if own != [name] or not buffer_roles.kept_whole(name, theirs):
        return None
    parts = [device[n] for n in theirs]
    unknown = next((p for p in parts if not p.resolved), None)
    if unknown is not None:
        return unknown
    return _summed(theirs, parts, f" ({parts[0].name}: {parts[0].arithmetic})")


def _summed(names: list[str], parts: list[BufferFigure], said: str = "") -> BufferFigure:
    """Resolved device buffers (`names`) as one figure (`k_buffer + v_buffer`), their sum."""
    total = sum(p.bytes_per_token_per_layer or 0 for p in parts)
    arithmetic = " + ".join(f"{p.name} {p.bytes_per_token_per_layer}" for p in parts)
    return BufferFigure(
        " + ".join(names),
        parts[0].location,
        bytes_per_token_per_layer=total,
        bytes_per_token=sum(p.bytes_per_token for p in parts),
        dtype=parts[0].dtype,
        arithmetic=f"{arithmetic} = {total} B/token/layer{said}",
    )


_DEVICE_SIDE = frozenset({"device", "gpu", "cuda"})


def _rest_by_role(
    name: str, device: dict[str, BufferFigure], host: dict[str, BufferFigure], settings
) -> BufferFigure | None:
    own = [n for n, f in host.items() if _grows(f) and not _named(n, device, settings)]
    theirs = [n for n, f in device.items() if _grows(f) and n not in host]
    if name not in own or len(own) != len(theirs) or len(own) < 2:
        return None  # (one storage each: no guess beside a name shared)
    if any(_DEVICE_SIDE.intersection(buffer_roles.words(n)) for n in own):
        return None  # (`device_k_buffers` on a host: the device's own tensors, held)
    if not any(_grows(f) and n in device for n, f in host.items()):
        return None  # (what it shares by name holds no bytes per token: a flag, a bitmap)
    matched = buffer_roles.matching(own, theirs)
    if matched is None or set(matched) != set(own) or set(matched.values()) != set(theirs):
        return None
    return device[matched[name]]


def _same_role(
    name: str, device: dict[str, BufferFigure], host: dict[str, BufferFigure]
) -> BufferFigure | None:
    """A mirror under other names holding several storages (a snapshot's `k_rows`, `v_rows`
    for the cache's `k_l`, `v_l`; a spill buffer's `page_bufs`, `scale_bufs` for `kv_data`,
    `kv_scales`): when no host buffer names a device buffer (nor a `buffer-map` entry), and
    what each storage that grows holds, by its name (buffer_roles.py), pairs every host
    storage with exactly one device storage and every device storage with one host storage."""
    own = [n for n, figure in host.items() if _grows(figure)]
    theirs = [n for n, figure in device.items() if _grows(figure)]
    if name not in own:
        return None
    matched = buffer_roles.matching(own, theirs)
    if matched is None and len(own) != len(theirs):
        # a storage one side holds none of at this point (group scales of a head narrower
        # than a group: 0 B): matched among all the buffers, when every name says what it holds
        matched = buffer_roles.matching(list(host), list(device))
    return device[matched[name]] if matched is not None else None


def condition(
    points: list[dict[str, Any]], matching: list[dict[str, Any]], varied: list[str]
) -> dict[str, list[Any]] | None:
    """The fewest `dimension in {values}` facts that pick out exactly `matching` among `points`.

    None when no such description exists (the points are then listed).
    """
    if not matching:
        return None
    facts: dict[str, list[Any]] = {}
    for name in varied:
        values = [point[name] for point in matching]
        facts[name] = [v for i, v in enumerate(values) if v not in values[:i]]

    def selects(candidate: dict[str, list[Any]]) -> bool:
        chosen = [p for p in points if all(p[n] in vs for n, vs in candidate.items())]
        return len(chosen) == len(matching)

    if not selects(facts):
        return None
    for name in list(facts):
        trial = {k: v for k, v in facts.items() if k != name}
        if selects(trial):
            facts = trial
    return facts


def describe(facts: dict[str, list[Any]]) -> str:
    """`dtype=bfloat16, page_size in {1, 64}`: a condition (or one point) as written."""
    parts = []
    for name, values in facts.items():
        if len(values) == 1:
            parts.append(f"{name}={describe_value(values[0])}")
        else:
            parts.append(f"{name} in {{{', '.join(describe_value(v) for v in values)}}}")
    return ", ".join(parts)


def where(points: list[dict[str, Any]], matching: list[dict[str, Any]], varied: list[str]) -> str:
    """The config points `matching` (on the `varied` dimensions) among `points`, as a finding
    says it: a condition, "every config point", or the first point and how many more."""
    facts = condition(points, matching, varied)
    if facts is None:
        return describe({n: [v] for n, v in matching[0].items()}) + (
            f" and {len(matching) - 1} more points" if len(matching) > 1 else ""
        )
    return describe(facts) if facts else "every config point"


def size_text(per_layer: int | None, per_token: int = 0) -> str:
    """`576 B/token/layer`, with `+ 8 B/token` when some bytes do not scale with layers."""
    return f"{per_layer} B/token/layer" + (f" + {per_token} B/token" if per_token else "")
