"""Buffers a pool exposes only through a property: a pool may keep a buffer on a helper object
built with a back-reference to the pool, and expose it as a property of the pool, which is
what its host mirror copies. Measuring reads attributes, so such properties are read once the
pool is built and their values recorded as attributes (an engine's post-build step: see
engines/sglang.py for the idiom that needs it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from auditor.interpret.control import Infeasible
from auditor.interpret.values import Instance, Tensor

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter

PROPERTY_DECORATORS = ("property", "cached_property", "functools.cached_property")


def _tensor_ids(value: object) -> set[int]:
    if isinstance(value, Tensor):
        return {value.ident}
    if isinstance(value, (list, tuple)):
        return set().union(*(_tensor_ids(v) for v in value)) if value else set()
    return set()


def expose_buffer_properties(
    interpreter: Interpreter, instance: Instance, is_buffer_name: Callable[[str], bool]
) -> None:
    """Read every property of `instance`'s classes whose name is a buffer's, and record its
    value as an attribute. A property returning tensors some attribute already holds (an alias)
    is left out, and one that raises is not a buffer."""
    held = (
        set().union(*(_tensor_ids(v) for v in instance.attrs.values())) if instance.attrs else set()
    )
    seen: set[str] = set()
    for klass in instance.cls.mro():
        for name, method in klass.methods.items():
            if name in seen or name in instance.attrs or not is_buffer_name(name):
                continue
            seen.add(name)
            if not method.has_decorator(*PROPERTY_DECORATORS):
                continue
            location = method.module.parsed.location(method.node.name)
            try:
                value = interpreter.get_attribute(instance, name, location)
            except Infeasible:
                continue
            ids = _tensor_ids(value)
            if ids and ids <= held:
                continue
            instance.attrs[name] = value
            instance.set_sites.setdefault(name, location)
