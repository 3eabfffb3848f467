"""Buffers a device pool holds per slot, not per token.

HiSparse's device pool keeps its index-K for `size * host_to_device_ratio` slots (it is indexed
by the full logical location, host tokens included) while its KV buffers hold `size` tokens.
Measured per device token that buffer is `ratio` times its per-slot size, and the host mirror,
which holds one index-K row per host token, would look too small: a false finding. A pool
taking a parameter the rule pack names in `[parameters] slot-ratio` is built again at twice the
ratio; a buffer whose bytes per token double with it holds `size * ratio` slots, and its figure
becomes bytes per slot (the per-token figure divided by the ratio). A buffer that does not
scale, or scales otherwise, keeps its per-token figure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.measure import BufferFigure
from auditor.frontend.index import ClassInfo


def slot_ratio(cls: ClassInfo, values: dict[str, Any], names: list[str]) -> tuple[str, int] | None:
    """The slot-ratio parameter `cls` takes and its value at this point: an int > 0 only (a
    float ratio sizes nothing in whole slots), else None."""
    taken = parameter_names(cls)
    for name in names:
        value = values.get(name)
        if name in taken and isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return name, value
    return None


def per_slot(
    figures: dict[str, BufferFigure],
    doubled: dict[str, BufferFigure],
    name: str,
    ratio: int,
) -> dict[str, BufferFigure]:
    """`figures` (at `name` = ratio) with each buffer that doubled at twice the ratio
    (`doubled`) given per slot."""
    result = dict(figures)
    for buffer, figure in figures.items():
        other = doubled.get(buffer)
        if other is None or not figure.resolved or not other.resolved:
            continue
        sizes = (figure.bytes_per_token_per_layer or 0, figure.bytes_per_token)
        twice = (other.bytes_per_token_per_layer or 0, other.bytes_per_token)
        if not any(sizes) or twice != (2 * sizes[0], 2 * sizes[1]):
            continue
        if sizes[0] % ratio or sizes[1] % ratio:
            continue
        per_layer, per_token = sizes[0] // ratio, sizes[1] // ratio
        result[buffer] = replace(
            figure,
            bytes_per_token_per_layer=per_layer,
            bytes_per_token=per_token,
            arithmetic=(
                f"{figure.arithmetic}; held per slot, size * {name} of them: "
                f"{sizes[0]} / {ratio} = {per_layer} B/slot/layer"
            ),
            per_slot=name,
        )
    return result
