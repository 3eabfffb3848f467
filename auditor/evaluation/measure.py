"""Stage 5: bytes per token per layer of every buffer a built pool holds.

A pool is built at two token counts and two layer counts; with B(s, l) = a*s*l + b*s + c*l + d,
the mixed difference gives `a`, bytes per token per layer, and padding such as `size +
page_size` (the c and d terms) drops out. Token and layer counts are read off the built pool
(`self.size`, `self.layer_num`), so a host sized as a multiple of its device is measured per
its own token.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from auditor.dtypes import dtype_name, itemsize
from auditor.frontend.behaviour import ROWS_OF_BLOCKS, says_tokens_per_block
from auditor.frontend.index import ClassInfo
from auditor.interpret.values import Instance, Tensor, Unknown, UnknownAllocation, is_unknown
from auditor.location import Location


def looks_like_buffer(name: str) -> bool:
    """For attributes that are Unknown: is the name one of a buffer (not `index_buf_size`)?"""
    return "buffer" in name or name.endswith("_buf")


@dataclass(frozen=True)
class BufferFigure:
    """One buffer of one pool at one config point."""

    name: str
    location: Location
    bytes_per_token_per_layer: int | None = None
    bytes_per_token: int = 0  # per token, not scaling with layers (rare)
    dtype: str | None = None
    arithmetic: str = ""
    unknown: Unknown | None = None
    # the slot-ratio parameter when the figure is per slot, not per token (slots.py)
    per_slot: str | None = None

    @property
    def resolved(self) -> bool:
        return self.unknown is None

    def same_size(self, other: BufferFigure) -> bool:
        return (self.bytes_per_token_per_layer, self.bytes_per_token) == (
            other.bytes_per_token_per_layer,
            other.bytes_per_token,
        )

    def size_text(self) -> str:
        unit = "slot" if self.per_slot else "token"
        text = f"{self.bytes_per_token_per_layer} B/{unit}/layer"
        if self.bytes_per_token:
            text += f" + {self.bytes_per_token} B/{unit}"
        return text


def tensors_of(value: Any) -> list[Tensor] | Unknown | None:
    """The tensors an attribute holds (a tensor, or a per-layer list of them), else None."""
    if isinstance(value, Tensor):
        return None if value.metadata else [value]
    if isinstance(value, (list, tuple)) and value:
        found: list[Tensor] = []
        for item in value:
            inner = tensors_of(item)
            if inner is None:
                return None
            if is_unknown(inner):
                return inner
            found.extend(inner)
        return found
    return None


def attributes_of(instance: Instance) -> dict[str, Any]:
    """An instance's attributes, with the fields of a record it holds (a dataclass of the
    audited tree: SGLang's `self.mamba_cache = self.State(conv=..., temporal=...)`) as
    `mamba_cache.temporal`: storage the pool keeps in a record is its storage."""
    found: dict[str, Any] = {}
    for name, value in instance.attrs.items():
        if isinstance(value, Instance) and value is not instance and _is_record(value.cls):
            for field_name, field_value in value.attrs.items():
                found[f"{name}.{field_name}"] = field_value
        elif _records(value, instance):
            # a record per layer (`self.layers = [Slab(k=..., v=...) for _ in range(n)]`):
            # each field, over the layers, is a per-layer buffer (`layers.k`)
            for field_name in value[0].attrs:
                found[f"{name}.{field_name}"] = [v.attrs.get(field_name) for v in value]
        elif _tensor_dict(value) and _numbered(value):
            # kept by a name numbering the layer (`cache[f"layers.{i}.attn"]`): per layer
            found[name] = [value[k] for k in sorted(value, key=_numbers)]
        elif _tensor_dict(value) and all(isinstance(k, str) for k in value):
            # buffers kept by name (`self.buffers["k_q"] = ...`): each one a buffer
            found.update((f'{name}["{key}"]', item) for key, item in value.items())
        elif _tensor_dict(value) and all(type(k) is int for k in value):
            # kept by layer id (`{lid: torch.zeros(...) for lid in full_layer_ids}`): per layer
            found[name] = [value[k] for k in sorted(value)]
        else:
            found[name] = value
    return found


def _records(value: Any, instance: Instance) -> bool:
    """A non-empty list of instances of one record class (a dataclass of the audited tree)
    holding tensors, not the pool itself."""
    if type(value) is not list or not value:
        return False
    first = value[0]
    return (
        isinstance(first, Instance)
        and first is not instance
        and _is_record(first.cls)
        and all(isinstance(v, Instance) and v.cls is first.cls for v in value)
        and any(isinstance(f, Tensor) for f in first.attrs.values())
    )


def _numbered(value: dict) -> bool:
    """String keys that differ only by the numbers in them (`draft.layers.0.attn`,
    `draft.layers.1.attn`): one buffer per number, not buffers of their own."""
    keys = list(value)
    return all(isinstance(k, str) and _DIGITS.search(k) for k in keys) and (
        len({_DIGITS.sub("#", k) for k in keys}) == 1
    )


def _numbers(key: str) -> tuple[int, ...]:
    return tuple(int(n) for n in _DIGITS.findall(key))


_DIGITS = re.compile(r"\d+")


def _tensor_dict(value: Any) -> bool:
    """A non-empty dict whose every value holds tensors (a tensor, or a list of them)."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(tensors_of(v) is not None and not is_unknown(tensors_of(v)) for v in value.values())
    )


def _is_record(cls: ClassInfo) -> bool:
    return bool(cls.node.decorators) and any(
        "dataclass" in cls.module.parsed.code(d.decorator) for d in cls.node.decorators
    )


def buffers_of(instance: Instance) -> dict[str, list[Tensor] | Unknown]:
    """Every buffer attribute; one holding only views of tensors another attribute holds
    (`self.k_buffer = self.kv_buffer[0]`) is that storage again and is left out."""
    result: dict[str, list[Tensor] | Unknown] = {}
    held: dict[int, Tensor] = {}
    attributes = attributes_of(instance)
    for value in attributes.values():
        tensors = None if is_unknown(value) else tensors_of(value)
        if tensors is not None and not is_unknown(tensors):
            held.update((t.ident, t) for t in tensors if t.view_of is None)
    covering: dict[str, frozenset[int]] = {}  # views naming the whole of some storage
    parts: dict[str, list[Tensor]] = {}  # views naming a part of one storage
    for name, value in attributes.items():
        if is_unknown(value):
            # a record field (`mamba_cache.temporal`) not known is state the pool keeps
            if looks_like_buffer(name) or "." in name or isinstance(value, UnknownAllocation):
                result[name] = value
            continue
        if isinstance(value, (list, tuple)) and any(is_unknown(v) for v in value):
            if any(isinstance(v, (Tensor, UnknownAllocation)) for v in value) or (
                looks_like_buffer(name)
            ):
                result[name] = next(v for v in value if is_unknown(v))
            continue
        tensors = tensors_of(value)
        if tensors is not None:
            if not is_unknown(tensors) and tensors and all(t.view_of in held for t in tensors):
                bases = _wholly_viewed(tensors, held)
                if bases:
                    covering[name] = bases
                elif len({t.view_of for t in tensors}) == 1:
                    parts[name] = tensors
                continue
            result[name] = tensors
    _carve(result, parts, held)
    return _without_aliases(result, covering)


def _carve(
    buffers: dict[str, list[Tensor] | Unknown], parts: dict[str, list[Tensor]], held: dict
) -> None:
    """A private flat region carved whole into named views (`self._region = torch.empty(n,
    dtype=torch.uint8)`, then `self.k_cache = self._region[:half].view(torch.bfloat16).view(
    shape)` and `self.v_cache` the rest, or per layer into lists): the views are the buffers,
    the region only their storage. A shaped storage some of whose bytes no view names, or a
    public one (SGLang's `kv_buffer` beside its `k_buffer = kv_buffer[0]`), stays as it is; a
    flat (one-dimensional) region may leave bytes between aligned fields."""
    by_base: dict[int, list[str]] = {}
    for name, tensors in parts.items():
        by_base.setdefault(tensors[0].view_of, []).append(name)
    for base, names in by_base.items():
        holders = [
            n
            for n, tensors in buffers.items()
            if not is_unknown(tensors) and [t.ident for t in tensors] == [base]
        ]
        if not holders:
            continue
        carved = sum(t.nbytes for n in names for t in parts[n])
        if len(held[base].shape) == 1:  # a flat byte region: the views are its fields,
            if carved > held[base].nbytes:  # aligned segments may leave bytes between them
                continue
        elif not all(n.startswith("_") for n in holders) or carved != held[base].nbytes:
            continue
        for holder in holders:
            del buffers[holder]
        for name in names:
            buffers[name] = parts[name]


def held_from(host: Any, device: Any) -> set[str]:
    """The host's buffer attributes that hold the device pool's own tensors (or views of them):
    a host keeping its device's slab from a buffer-info record (`self.device_slab =
    buffer_info.slab`) holds no storage there, so that attribute is not a host buffer."""
    if not isinstance(host, Instance) or not isinstance(device, Instance):
        return set()
    theirs: set[int] = set()
    for tensors in buffers_of(device).values():
        if not is_unknown(tensors):
            theirs.update(t.ident for t in tensors)
    found = set()
    for name, tensors in buffers_of(host).items():
        if is_unknown(tensors) or not tensors:
            continue
        if all(t.ident in theirs or t.view_of in theirs for t in tensors):
            found.add(name)
    return found


def _wholly_viewed(views: list[Tensor], held: dict[int, Tensor]) -> frozenset[int]:
    """The storages these views cover entirely (FIA's per-layer `buf[i].view(...)` list of all
    layers), else nothing: a part (`self.k_buffer = self.kv_buffer[0]`) is not another name."""
    covered: dict[int, int] = {}
    for view in views:
        covered[view.view_of] = covered.get(view.view_of, 0) + view.nbytes
    if any(held[base].nbytes != nbytes for base, nbytes in covered.items()):
        return frozenset()
    return frozenset(covered)


def _without_aliases(
    buffers: dict[str, list[Tensor] | Unknown], covering: dict[str, frozenset[int]]
) -> dict[str, list[Tensor] | Unknown]:
    """One name per storage: attributes holding the very same tensors (`self.k_buffer =
    self._hicache_k_buffer`, `self.k_buffer_tensor = self.k_buffer`) are one buffer, kept under
    the plainest of its names (public before `_private`, a buffer's name before another such
    as `index_k_data_refs`, then the shortest, then the first assigned), so a storage is
    neither counted twice nor compared under a name the other side does not use.
    Views that cover a storage entirely (`covering`) are one more name of it."""
    groups: dict[frozenset[int], list[str]] = {}
    for name, tensors in buffers.items():
        if not is_unknown(tensors) and tensors:
            groups.setdefault(frozenset(t.ident for t in tensors), []).append(name)
    renamed: dict[str, str] = {}  # the storage's first holder -> the name it is kept under
    dropped: set[str] = set()
    for storage, names in groups.items():
        views = [name for name, bases in covering.items() if bases == storage]
        if len(names) + len(views) > 1:
            # a flat byte region whose name says nothing of what it holds (`raw`) is named by
            # the view saying it (`self.kv_cache = self.raw.view(dtype).view(...)`); one named
            # as a buffer (`kv_buffer`) keeps its name, a public name before a private one
            flat = {
                n
                for n in names
                if not looks_like_buffer(n) and all(_byte_region(t) for t in buffers[n])  # type: ignore[union-attr]
            }
            keep = min(names + views, key=lambda n: (n.startswith("_"), n in flat, _plainness(n)))
            dropped.update(n for n in names if n != keep)
            if keep in views:
                renamed[names[0]] = keep
                dropped.discard(names[0])
    kept: dict[str, list[Tensor] | Unknown] = {}
    for name, value in buffers.items():
        if name not in dropped:
            kept[renamed.get(name, name)] = value
    return kept


def _byte_region(tensor: Tensor) -> bool:
    """One dimension of bytes (`torch.empty(n * row, dtype=torch.uint8)`): storage whose
    views say what it holds."""
    return len(tensor.shape) == 1 and dtype_name(tensor.dtype) == "uint8"


def _plainness(name: str) -> tuple[bool, bool, int]:
    return (name.startswith("_"), not looks_like_buffer(name), len(name.lstrip("_")))


def row_counts(builds: list[tuple[Instance, int, int]]) -> tuple[list[int], str] | None:
    """The rows each build holds, for a pool that names no token count (a host sizing itself
    `int(len(device.kv[0]) * ratio)`): in two builds of the same layer count at different
    token counts, the one dimension of every buffer tensor that differs; each build's rows are
    that dimension's length, the same in all its tensors. None when the tensors do not agree
    on one such dimension: then nothing says what a row is.

    Returns the counts and a description of the dimension."""
    found = [buffers_of(instance) for instance, _, _ in builds]
    counts: list[int | None] = [None] * len(builds)
    axes: set[int] = set()
    for i, (_, tokens, layers) in enumerate(builds):
        partner = next(
            (j for j, (_, t, n) in enumerate(builds) if n == layers and t != tokens), None
        )
        if partner is None:
            return None
        for name, tensors in found[i].items():
            others = found[partner].get(name)
            if is_unknown(tensors) or others is None or is_unknown(others):
                return None
            if len(tensors) != len(others):
                return None
            for mine, theirs in zip(tensors, others):
                if len(mine.shape) != len(theirs.shape):
                    return None
                differ = [k for k, (a, b) in enumerate(zip(mine.shape, theirs.shape)) if a != b]
                if len(differ) != 1:
                    return None
                rows = mine.shape[differ[0]]
                if counts[i] not in (None, rows) or rows <= 0:
                    return None
                counts[i] = rows
                axes.add(differ[0])
    if None in counts or not axes:
        return None
    where = f"dimension {sorted(axes)[0]}" if len(axes) == 1 else "one dimension of each tensor"
    return [c for c in counts if c is not None], where


def count_of(instance: Instance, names: list[str], fallback: int) -> int:
    for name in names:
        value = instance.attrs.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return fallback


def class_ranges(cls: ClassInfo) -> list[tuple[str, int, int]]:
    ranges = []
    for klass in cls.mro():
        location = klass.module.parsed.location(klass.node)
        ranges.append((location.path, location.line, location.end_line or location.line))
    return ranges


def best_location(tensor: Tensor, cls: ClassInfo, fallback: Location | None) -> Location:
    """The allocation site, or the call inside the pool's own classes that led to it."""
    ranges = class_ranges(cls)
    for candidate in (tensor.site, *reversed(tensor.trace)):
        for path, start, end in ranges:
            if candidate.path == path and start <= candidate.line <= end:
                return candidate
    return fallback or tensor.site


def _paren(text: str) -> str:
    return f"({text})" if any(op in text for op in " +-") and not text.isidentifier() else text


def arithmetic(first: Tensor, last: Tensor, per_token_per_layer: int) -> str:
    """`expr = elements x dtype (k B) = N B/token/layer` where the shape allows it."""
    size = itemsize(first.dtype)
    dtype = f"{dtype_name(first.dtype)} ({size} B)"
    texts = first.dims_text if len(first.dims_text) == len(first.shape) else ()
    static = (
        [i for i, (a, b) in enumerate(zip(first.shape, last.shape)) if a == b]
        if len(first.shape) == len(last.shape)
        else []
    )
    elements = 1
    for i in static:
        elements *= first.shape[i]
    result = f"{per_token_per_layer} B/token/layer"
    if texts and elements * size == per_token_per_layer:
        parts = [texts[i] for i in static if texts[i] != "1"] or ["1"]
        expr = " * ".join(_paren(p) if len(parts) > 1 else p for p in parts)
        middle = f"{expr} = {elements}" if expr != str(elements) else expr
        return f"{middle} x {dtype} = {result}"
    if texts:
        return f"shape ({', '.join(texts)}) x {dtype} = {result}"
    return f"shape {first.shape} x {dtype} = {result}"


def _grid(counts: list[tuple[int, int]]) -> bool:
    """Are the first four builds' counts (s1,l1), (s2,l1), (s1,l2), (s2,l2)?"""
    (s1, l1), (s2, l1b), (s1b, l2), (s2b, l2b) = counts[:4]
    return l1 == l1b and s1 == s1b and s2 == s2b and l2 == l2b


def _fit_anywhere(totals: list[int], counts: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(a, b) of B(s, l) = a*s*l + b*s + c*l + d, integers, fitted on four builds whose counts
    are not a grid and checked on every build; None where no such fit holds (or four builds
    do not decide one, or no fifth build checks the fit: four points fit any such form)."""
    if len(counts) < 5:
        return None
    rows = [[Fraction(s * n), Fraction(s), Fraction(n), Fraction(1)] for s, n in counts]
    for chosen in itertools.combinations(range(len(counts)), 4):
        solved = _solve([rows[i] for i in chosen], [Fraction(totals[i]) for i in chosen])
        if solved is None:
            continue
        if any(x.denominator != 1 for x in solved):
            return None
        a, b, c, d = (int(x) for x in solved)
        fits = all(
            total == a * s * layers + b * s + c * layers + d
            for total, (s, layers) in zip(totals, counts)
        )
        return (a, b) if fits and a > 0 else None
    return None


def _solve(matrix: list[list[Fraction]], right: list[Fraction]) -> list[Fraction] | None:
    """The solution of a square linear system by Gaussian elimination; None if singular."""
    size = len(matrix)
    rows = [row[:] + [value] for row, value in zip(matrix, right)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if rows[r][column] != 0), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[column])]
    return [rows[r][size] / rows[r][r] for r in range(size)]


def _fits(totals: list[int], counts: list[tuple[int, int]], a: int, b: int) -> bool:
    """Does B(s, l) = a*s*l + b*s + c*l + d, fitted on the first four builds, predict the rest?"""
    (s1, l1), (_, l2) = counts[0], counts[2]
    c_times = (totals[2] - totals[0]) - a * s1 * (l2 - l1)  # c * (l2 - l1)
    if c_times % (l2 - l1):
        return False
    c = c_times // (l2 - l1)
    d = totals[0] - a * s1 * l1 - b * s1 - c * l1
    return all(
        total == a * s * layers + b * s + c * layers + d
        for total, (s, layers) in zip(totals[4:], counts[4:])
    )


_IN_BLOCKS = ROWS_OF_BLOCKS  # rows of several tokens (behaviour.py)


def _per_held_row(
    totals: list[int],
    counts: list[tuple[int, int]],
    builds: list[tuple[Instance, Any, int]],
    token_names: list[str],
) -> tuple[int, str] | None:
    """A pool whose rows do not follow the token count it is built with, but that keeps them
    (`self.slots = swap_bytes // bytes_per_token`: a byte budget sizes it): bytes per row per
    layer, where every build holds exactly `a * rows * layers` bytes with one `a` at two layer
    counts or more (no padding term: one that exists makes the quotients differ, and the
    buffer stays unresolved). None otherwise."""
    attribute = next(
        (n for n in token_names if all(_tokens_per_block(b[0].attrs.get(n)) for b in builds)),
        None,
    )
    if attribute is None or len({n for _, n in counts}) < 2:
        return None
    held = f"self.{attribute}"
    per_row = [1] * len(builds)
    if _IN_BLOCKS.search(attribute):
        # rows of blocks: as many tokens each as the block size it keeps (`self.block_size`)
        block = next(
            (
                name
                for name in sorted(builds[0][0].attrs)
                if says_tokens_per_block(name)
                and all(_tokens_per_block(b[0].attrs.get(name)) for b in builds)
            ),
            None,
        )
        if block is None:
            return None
        per_row = [b[0].attrs[block] for b in builds]
        held = f"self.{attribute} x self.{block} tokens"
    quotients = set()
    for total, (rows, layers), tokens in zip(totals, counts, per_row):
        rows *= tokens
        if total % (rows * layers):
            return None
        quotients.add(total // (rows * layers))
    if len(quotients) != 1:  # (0 where the buffer is empty at this point: `d // g` with d < g)
        return None
    note = (
        f"; per row held ({held}, which does not follow the token count the pool is "
        "built with): bytes / (rows x layers), the same at every build"
    )
    return quotients.pop(), note


def _tokens_per_block(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def tokens_per_unit(instance: Instance, block: str | None) -> int | None:
    """Tokens in one unit of the token count: a paged pool sized in blocks (`num_blocks`)
    holds `self.<block>` tokens per block (roles.py), 1 for a pool sized in tokens; None when
    the pool is sized in blocks and does not say how many tokens one holds."""
    if block is None:
        return 1
    kept = _tokens_per_block(instance.attrs.get(block))
    # (or the block size its constructor was given, where it keeps none: `block_size=16`)
    return kept if kept is not None else _tokens_per_block(instance.given.get(block))


def measure(
    builds: list[tuple[Instance, int, int]],
    cls: ClassInfo,
    token_names: list[str],
    layer_names: list[str],
    block: str | None = None,
    block_given: list[int | None] | None = None,
) -> dict[str, BufferFigure]:
    """Figures for each buffer from builds at (s1,l1), (s2,l1), (s1,l2), (s2,l2), and
    optionally a fifth at (s3,l2) that checks the fit (a `size * size` buffer fits any four).

    `builds` holds (instance, token count given, layer count given); `block_given`, per build,
    the tokens per block a pool that keeps no `self.<block>` was built with.
    """
    found = [buffers_of(instance) for instance, _, _ in builds]
    names = sorted({name for buffers in found for name in buffers})
    units = [tokens_per_unit(instance, block) for instance, _, _ in builds]
    if block_given is not None:  # only a positive count is tokens per block
        units = [unit or _tokens_per_block(given) for unit, given in zip(units, block_given)]
    if None in units:  # sized in blocks of an unknown number of tokens
        why = f"the token count is in blocks and the pool holds no {block} to say how many tokens"
        return {
            name: BufferFigure(name, cls.location, unknown=Unknown(why, cls.location))
            for name in names
        }
    counts = [
        (count_of(instance, token_names, tokens) * unit, count_of(instance, layer_names, layers))
        for (instance, tokens, layers), unit in zip(builds, units)
    ]
    (s1, l1), (s2, _), (_, l2) = counts[:3]
    figures: dict[str, BufferFigure] = {}
    for name in names:
        site = builds[0][0].set_sites.get(name) or cls.location
        values = [buffers.get(name) for buffers in found]
        missing = [v for v in values if v is None]
        unknown = next((v for v in values if is_unknown(v)), None)
        if unknown is not None:
            figures[name] = BufferFigure(name, unknown.location or site, unknown=unknown)
            continue
        if missing:
            figures[name] = BufferFigure(
                name, site, unknown=Unknown("buffer exists at some token/layer counts only", site)
            )
            continue
        totals = [sum(t.nbytes for t in tensors) for tensors in values]
        location = best_location(values[0][0], cls, site)
        held = (
            _per_held_row(totals, counts, builds, token_names) if s1 == s2 and not block else None
        )
        if held is not None:
            figures[name] = BufferFigure(
                name,
                location,
                bytes_per_token_per_layer=held[0],
                dtype=dtype_name(values[0][0].dtype),
                arithmetic=arithmetic(values[0][0], values[2][0], held[0]) + held[1],
            )
            continue
        if s1 == s2 or l1 == l2:
            figures[name] = BufferFigure(
                name,
                location,
                unknown=Unknown("pool size did not follow the token or layer count", location),
            )
            continue
        if not _grid(counts):
            # the counts the pool keeps are not the ones it was built with (`self.size =
            # budget // self.token_bytes()`, which reads the layer count): fitted as they are
            fitted = _fit_anywhere(totals, counts)
            if fitted is None:
                figures[name] = BufferFigure(
                    name,
                    location,
                    unknown=Unknown("bytes are not linear in tokens and layers", location),
                )
                continue
            figures[name] = BufferFigure(
                name,
                location,
                bytes_per_token_per_layer=fitted[0],
                bytes_per_token=fitted[1],
                dtype=dtype_name(values[0][0].dtype),
                arithmetic=arithmetic(values[0][0], values[3][0], fitted[0]),
            )
            continue
        b11, b21, b12, b22 = totals[:4]
        numerator = b22 - b12 - b21 + b11
        denominator = (s2 - s1) * (l2 - l1)
        per_token_numerator = (b21 - b11) - (numerator // denominator if denominator else 0) * (
            s2 - s1
        ) * l1
        if (
            numerator % denominator
            or numerator // denominator < 0  # (fewer bytes with more tokens: no figure)
            or per_token_numerator % (s2 - s1)
            or not _fits(totals, counts, numerator // denominator, per_token_numerator // (s2 - s1))
        ):
            figures[name] = BufferFigure(
                name,
                location,
                unknown=Unknown("bytes are not linear in tokens and layers", location),
            )
            continue
        per_token_per_layer = numerator // denominator
        figures[name] = BufferFigure(
            name,
            location,
            bytes_per_token_per_layer=per_token_per_layer,
            bytes_per_token=per_token_numerator // (s2 - s1),
            dtype=dtype_name(values[0][0].dtype),
            arithmetic=arithmetic(values[0][0], values[3][0], per_token_per_layer),
        )
    return figures
