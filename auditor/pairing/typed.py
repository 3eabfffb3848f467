"""What a host pool's parameter type says of the devices it receives.

Read for every host the code does not pair by configuration: it pairs a host built nowhere in
the audited paths (strategies.py, AnnotationPairs), and it is what a construction site's
narrowing starts from (the devices a site may hand over are the ones the type names). A host
taking the device pool is read by the device parameter's annotation (every concrete device
pool below that class), or, untyped, by the buffers it reads off it; a host taking a record of
the device's buffers (`buffer_info: MLABufferInfo`) by the device pools that build such a
record.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from auditor.evaluation.matrix import constructor_parameters
from auditor.evaluation.roles import RoleBook
from auditor.frontend import walk
from auditor.frontend.index import ClassInfo, ProjectIndex, dotted
from auditor.frontend.scope import class_node, cpython_tree
from auditor.interpret.values import Unknown
from auditor.pairing.pools import buffer_names
from auditor.settings import Settings


@dataclass(frozen=True)
class TypedDevices:
    """The devices a host's parameter type names, and the evidence text (or why none)."""

    devices: list[ClassInfo]
    evidence: str | Unknown


def _device_annotation(
    cls: ClassInfo, settings: Settings, book: RoleBook | None = None
) -> str | None:
    params = book.device_params(cls) if book is not None else settings.device_pool_params
    for param in constructor_parameters(cls):
        if param.name.value in params and param.annotation is not None:
            annotation = param.annotation.annotation
            name = dotted(annotation)
            if name is None:  # "KVCache" as a string, Optional[KVCache] ...
                text = cls.module.parsed.code(annotation).strip("\"' ")
                name = text.removeprefix("Optional[").removesuffix("]").strip("\"' ")
            return name
    return None


def _annotation_owner(cls: ClassInfo) -> ClassInfo:
    """The class in the MRO whose __init__ declares the constructor (where the annotation is)."""
    init = cls.find_method("__init__")
    return init.owner if init is not None and init.owner is not None else cls


def annotation_devices(
    index: ProjectIndex,
    host: ClassInfo,
    devices: list[ClassInfo],
    settings: Settings,
    book: RoleBook | None = None,
    trees: dict | None = None,
) -> TypedDevices:
    """Devices below the class the host's device parameter is annotated with, and the evidence
    text (or why there is none). An untyped parameter seen by behaviour: the devices holding
    every buffer the host reads off it."""
    annotation = _device_annotation(host, settings, book)
    owner = _annotation_owner(host)
    role = book.hosts.get(id(host)) if book is not None else None
    if annotation is None and role is not None and role.annotation is None:
        held = {id(d): buffer_names(d, trees) for d in devices}
        wanted = role.reads & set().union(*held.values())
        found = [d for d in devices if wanted and wanted <= held[id(d)]]
        if found:
            shown = ", ".join(f"{role.parameter}.{a}" for a in sorted(wanted))
            return TypedDevices(
                found, f"use of {shown} in {host.name} (the device pools holding them)"
            )
        if not wanted and role.reads:  # sized by the pool's attributes: the pools having all
            found = [d for d in devices if role.reads <= book.attributes(d)]
            if found:
                shown = ", ".join(f"{role.parameter}.{a}" for a in sorted(role.reads))
                return TypedDevices(
                    found, f"use of {shown} in {host.name} (the device pools having them)"
                )
    if annotation is None:
        return TypedDevices(
            [],
            _unpaired(
                host,
                "device pool parameter has no annotation to pair by"
                + _methods_note(index, host, devices, book, trees),
            ),
        )
    base = index.resolve_static(owner.module, annotation)
    if not isinstance(base, ClassInfo):
        return TypedDevices(
            [],
            _unpaired(
                host,
                f"annotation {annotation!r} is not a class in the audited tree",
            ),
        )
    found = [c for c in index.all_subclasses(base) if c in devices]
    if not found:  # said, never silently dropped: the class is not one the audit builds
        return TypedDevices(
            [],
            _unpaired(
                host,
                f"annotation {annotation!r} names {base.name}, which is not a device pool "
                "(nor a base of one): no token and layer counts to build it with",
            ),
        )
    return TypedDevices(found, f"annotation {annotation} on {owner.name}.__init__")


def record_producers(
    index: ProjectIndex, host: ClassInfo, devices: list[ClassInfo], settings: Settings, trees
) -> TypedDevices:
    """Devices whose methods (their MRO) build a record of a class the host's record parameter
    is annotated with (`MLABufferInfo(...)`), and the evidence text (or why there are none)."""
    owner = _annotation_owner(host)
    param = next(
        (p for p in constructor_parameters(host) if p.name.value in settings.buffer_info_params),
        None,
    )
    if param is None or param.annotation is None:
        return TypedDevices(
            [],
            _unpaired(
                host,
                "record parameter has no annotation to pair by",
            ),
        )
    text = owner.module.parsed.code(param.annotation.annotation)
    records = {}
    for word in re.findall(r"[A-Za-z_][\w.]*", text):
        found = index.resolve_static(owner.module, word)
        if isinstance(found, ClassInfo):
            records[found.name] = found
    if not records:
        return TypedDevices(
            [],
            _unpaired(
                host,
                f"annotation {text.strip()!r} names no record class of the audited tree",
            ),
        )
    producers = [d for d in devices if _builds_any(d, set(records), trees)]
    names = " | ".join(sorted(records))
    if not producers:
        return TypedDevices(
            [],
            _unpaired(
                host,
                f"no device pool builds a {names} record",
            ),
        )
    return TypedDevices(
        producers, f"device pools that build {names} (annotation on {owner.name}.__init__)"
    )


def _builds_any(device: ClassInfo, names: set[str], trees: dict) -> bool:
    """Does a method of the device (its MRO) call a class of these names, itself or through a
    function of its own module that it calls (`return (_page_row_device_pool_info(self, ...),)`,
    SGLang 0.5.23's MiniMax NVFP4 pools)?"""
    for klass in device.mro():
        key = ("builds", id(klass))
        if key not in trees:
            tree = cpython_tree(klass.module, trees)
            node = class_node(tree, klass) if tree is not None else None
            called = _called(node)
            helpers = {
                item.name: item
                for item in (tree.body if tree is not None else ())
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
            for name in sorted(called & set(helpers)):
                called |= _called(helpers[name])
            trees[key] = called
        if trees[key] & names:
            return True
    return False


def _called(node: ast.AST | None) -> set[str]:
    """The names called in `node` (`f(...)`, `x.f(...)`: `f`)."""
    called: set[str] = set()
    for item in walk.nodes(node) if node is not None else ():
        if isinstance(item, ast.Call):
            func = item.func
            if isinstance(func, ast.Name):
                called.add(func.id)
            elif isinstance(func, ast.Attribute):
                called.add(func.attr)
    return called


def _methods_note(
    index: ProjectIndex,
    host: ClassInfo,
    devices: list[ClassInfo],
    book: RoleBook | None,
    trees: dict | None,
) -> str:
    """`; the classes defining what it calls on it (get_page_envelope_buffer()),
    UnifiedMHATokenToKVPool, take no token and layer counts ...`: who the untyped parameter can
    be, by the methods the host's own class calls on it, when none of them is a pool the audit
    builds (SGLang 0.5.23's page-envelope host, whose devices are views of a shared pool)."""
    if book is None:
        return ""
    params = set(book.device_params(host))
    calls: set[str] = set()
    tree = cpython_tree(host.module, trees if trees is not None else {})
    node = class_node(tree, host) if tree is not None else None
    if node is not None:  # its own calls: a base's helpers serve every kind of host
        for item in walk.nodes(node):
            if (
                isinstance(item, ast.Call)
                and isinstance(item.func, ast.Attribute)
                and isinstance(item.func.value, ast.Name)
                and item.func.value.id in params
            ):
                calls.add(item.func.attr)
    if not calls:
        return ""
    called = sorted(calls)
    found = [
        c
        for c in index.all_classes()
        if not c.is_abstract() and all(c.find_method(m) is not None for m in called)
    ]
    if not found or any(c in devices for c in found):
        return ""
    names = ", ".join(sorted({c.name for c in found}))
    shown = ", ".join(f"{m}()" for m in called)
    return (
        f"; the classes defining what it calls on it ({shown}), {names}, take no token and "
        "layer counts: not device pools the audit can build"
    )


def _unpaired(host: ClassInfo, why: str) -> Unknown:
    """Why nothing typed says which device pools a host takes: `detail` holds the words
    without the host's name, for evidence that names the host itself."""
    return Unknown(f"host pool {host.name}: {why}", host.location, detail=why)
