"""Stage 3: modules, classes, functions, imports and the class hierarchy, resolved statically."""

from __future__ import annotations

import time

import pytest
from helpers import build_index, find_class, write_tree

from auditor.frontend.discover import discover
from auditor.frontend.index import (
    ClassInfo,
    FunctionInfo,
    ModuleInfo,
    ProjectIndex,
    absolute_module,
)
from auditor.frontend.parse import parse_file


def test_modules_classes_methods_and_functions_are_indexed(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/pool.py": """
                def helper():
                    def inner():
                        pass

                class Pool:
                    def __init__(self):
                        class Local:
                            pass

                    def alloc(self):
                        pass

                    class Nested:
                        def method(self):
                            pass
            """,
        },
    )
    assert set(index.modules) == {"pkg", "pkg.pool"}
    module = index.modules["pkg.pool"]
    assert module.is_package is False and index.modules["pkg"].is_package is True
    assert set(module.functions) == {"helper"}
    assert set(module.classes) == {"Pool"}
    pool = module.classes["Pool"]
    assert pool.qualname == "pkg.pool.Pool"
    assert set(pool.methods) == {"__init__", "alloc"}
    assert pool.methods["alloc"].qualname == "pkg.pool.Pool.alloc"
    assert pool.methods["alloc"].owner is pool
    assert module.functions["helper"].owner is None
    assert pool.location.path == "pkg/pool.py" and pool.location.line == 5


def test_top_level_imports_are_recorded_and_local_ones_are_not(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/mod.py": """
                import torch
                import torch.nn as nn
                import os.path
                from typing import TYPE_CHECKING
                from . import sibling
                from .. import top
                from ..util import helper as h
                from .x import *

                if TYPE_CHECKING:
                    from pkg.device import DevicePool

                try:
                    import fast as accel
                except ImportError:
                    import slow as accel

                def f():
                    import local_only

                class C:
                    import class_level
            """,
        },
    )
    imports = index.modules["pkg.sub.mod"].imports
    assert imports["torch"] == ("torch", None)
    assert imports["nn"] == ("torch.nn", None)
    assert imports["os"] == ("os", None)
    assert imports["TYPE_CHECKING"] == ("typing", "TYPE_CHECKING")
    assert imports["sibling"] == ("pkg.sub", "sibling")
    assert imports["top"] == ("pkg", "top")
    assert imports["h"] == ("pkg.util", "helper")
    assert imports["DevicePool"] == ("pkg.device", "DevicePool")
    assert imports["accel"] == ("fast", None)
    assert "local_only" not in imports and "class_level" not in imports


@pytest.mark.parametrize(
    "module, is_package, level, name, expected",
    [
        ("a.b.c", False, 1, "d", "a.b.d"),
        ("a.b.c", False, 2, "d", "a.d"),
        ("a.b.c", False, 1, None, "a.b"),
        ("a.b", True, 1, "d", "a.b.d"),
        ("a.b", True, 2, None, "a"),
        ("a", False, 3, "x", "x"),
        ("a.b", False, 0, "x.y", "x.y"),
    ],
)
def test_relative_imports_resolve_against_the_importing_module(
    module, is_package, level, name, expected
):
    info = ModuleInfo(module, parsed=None, is_package=is_package)
    assert absolute_module(info, level, name) == expected


def test_names_resolve_through_imports_and_re_exports(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "from .pools.device import DevicePool as Exported\n",
            "pkg/pools/__init__.py": "",
            "pkg/pools/device.py": """
                import torch

                class DevicePool:
                    pass

                def make():
                    pass
            """,
            "pkg/host.py": """
                import torch
                from pkg import Exported
                from pkg.pools import device
                from .pools.device import make
                from external.lib import Thing
            """,
        },
    )
    host = index.modules["pkg.host"]
    device_pool = index.modules["pkg.pools.device"].classes["DevicePool"]
    assert index.resolve_static(host, "Exported") is device_pool
    assert index.resolve_static(host, "device.DevicePool") is device_pool
    assert isinstance(index.resolve_static(host, "device"), ModuleInfo)
    assert isinstance(index.resolve_static(host, "make"), FunctionInfo)
    assert index.resolve_static(host, "Thing") == "external.lib.Thing"
    assert index.resolve_static(host, "torch.bfloat16") == "torch.bfloat16"
    assert index.resolve_static(host, "unbound") is None


def test_a_module_is_found_by_its_dotted_suffix(tmp_path):
    index = build_index(
        tmp_path,
        {
            "srt/__init__.py": "",
            "srt/mem_cache/__init__.py": "",
            "srt/mem_cache/pool.py": "class KVCache:\n    pass\n",
            "host.py": "from sglang.srt.mem_cache.pool import KVCache\n",
        },
    )
    assert index.find_module("sglang.srt.mem_cache.pool") is index.modules["srt.mem_cache.pool"]
    assert index.find_module("other.pool") is None
    resolved = index.resolve_static(index.modules["host"], "KVCache")
    assert isinstance(resolved, ClassInfo) and resolved.name == "KVCache"


def test_bases_are_linked_in_tree_and_recorded_outside_it(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": """
                import abc
                from typing import Generic, TypeVar

                T = TypeVar("T")

                class KVCache(abc.ABC):
                    pass

                class Typed(Generic[T]):
                    pass
            """,
            "pkg/pool.py": """
                import torch.nn
                from .base import KVCache
                from pkg import base

                class Pool(KVCache):
                    pass

                class Other(base.KVCache, torch.nn.Module):
                    pass
            """,
        },
    )
    kv_cache = find_class(index, "KVCache")
    pool, other = find_class(index, "Pool"), find_class(index, "Other")
    assert pool.bases == [kv_cache] and pool.external_bases == []
    assert kv_cache.external_bases == ["abc.ABC"]
    assert not kv_cache.has_opaque_base() and not pool.has_opaque_base()
    assert other.bases == [kv_cache]
    assert other.external_bases == ["torch.nn.Module"]
    assert other.has_opaque_base()
    assert find_class(index, "Typed").external_bases == ["Generic[T]"]
    assert index.all_subclasses(kv_cache) == [kv_cache, pool, other]


def test_mro_is_c3_on_a_diamond(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                class A:
                    def who(self): pass
                class B(A):
                    pass
                class C(A):
                    def who(self): pass
                class D(B, C):
                    pass
            """
        },
    )
    d = find_class(index, "D")
    assert [c.name for c in d.mro()] == ["D", "B", "C", "A"]
    assert d.find_method("who").owner.name == "C"


def test_cyclic_and_self_inheritance_do_not_hang(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                class A(B):
                    pass
                class B(A):
                    pass
                class S(S):
                    pass
            """
        },
    )
    started = time.perf_counter()
    a, s = find_class(index, "A"), find_class(index, "S")
    assert [c.name for c in a.mro()][0] == "A"
    assert s.mro() == [s] and s.bases == []
    assert index.all_subclasses(a)[0] is a
    assert a.find_method("missing") is None
    assert time.perf_counter() - started < 2


def test_abstract_classes_until_every_abstract_method_is_overridden(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                import abc

                class Base(abc.ABC):
                    @abc.abstractmethod
                    def get_key_buffer(self): ...

                    @abc.abstractmethod
                    def get_value_buffer(self): ...

                class Half(Base):
                    def get_key_buffer(self):
                        return 1

                class Full(Half):
                    def get_value_buffer(self):
                        return 2
            """
        },
    )
    assert find_class(index, "Base").is_abstract()
    assert find_class(index, "Half").is_abstract()
    assert not find_class(index, "Full").is_abstract()


def test_decorators_are_recognised_by_their_last_name(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                import functools

                class C:
                    @property
                    def a(self): ...

                    @functools.cached_property
                    def b(self): ...

                    @staticmethod
                    def c(): ...
            """
        },
    )
    methods = find_class(index, "C").methods
    assert methods["a"].has_decorator("property")
    assert methods["b"].has_decorator("cached_property")
    assert methods["c"].has_decorator("staticmethod") and not methods["c"].has_decorator("property")


def test_a_property_setter_does_not_replace_its_getter(tmp_path):
    index = build_index(
        tmp_path,
        {
            "m.py": """
                class C:
                    @property
                    def size(self):
                        return 1

                    @size.setter
                    def size(self, value):
                        pass

                    def plain(self):
                        return 1

                    def plain(self):
                        return 2
            """
        },
    )
    methods = find_class(index, "C").methods
    assert methods["size"].has_decorator("property")
    assert methods["plain"].node.body.body[0].body[0].value.value == "2"


def test_suffix_lookup_prefers_the_longest_match(tmp_path):
    index = build_index(
        tmp_path,
        {"a/mod.py": "class First:\n    pass\n", "b/a/mod.py": "class Second:\n    pass\n"},
    )
    assert set(index.find_module("z.b.a.mod").classes) == {"Second"}
    assert set(index.find_module("z.a.mod").classes) == {"First"}


def test_the_same_module_name_under_two_roots_keeps_both(tmp_path):
    """Two trees audited together each keep their modules; imports prefer their own tree."""
    write_tree(
        tmp_path / "one",
        {"mod.py": "class First:\n    pass\n", "use.py": "from mod import First\n"},
    )
    write_tree(
        tmp_path / "two",
        {"mod.py": "class Second:\n    pass\n", "use.py": "from mod import Second\n"},
    )
    sources, _ = discover([tmp_path / "one", tmp_path / "two"])
    index = ProjectIndex([parse_file(s, str(s.path)) for s in sources])
    classes = sorted(c.name for c in index.all_classes())
    assert classes == ["First", "Second"]
    users = [m for m in index.modules.values() if m.name == "use"]
    assert len(users) == 2
    for user in users:
        name = "First" if "one" in user.path else "Second"
        assert index.resolve_static(user, name).name == name
