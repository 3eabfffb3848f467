"""Which constructor parameter of each pool counts tokens, layers, or receives the device pool.

The rule pack names them (`size`, `layer_num`, `device_pool`) and those names win. A class the
names do not describe is read for what it does (behaviour.py): a concrete class allocating per
layer and per token from its parameters is a device pool, with the parameters the shapes say;
a class taking such a pool (a parameter annotated with its class or a base of it, or an
untyped one whose buffers it reads) may be its host mirror (pairing.py still asks that it
allocate buffers of the device's names). Engine-neutral: nothing here knows an engine's names.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from auditor.evaluation.matrix import parameter_names
from auditor.evaluation.passed_classes import passed_class
from auditor.frontend import walk
from auditor.frontend.behaviour import (
    Facts,
    Roles,
    allocates,
    constructor,
    dtype_constants,
    dtype_table_keys,
    field_classes,
    field_defaults,
    fields_naming_torch_dtypes,
    given_to_base,
    helper_calls,
    indexed_tables,
    infer_roles,
    inlined,
    instance_attributes,
    literal_table_keys,
    methods_of,
    names_a_count,
    names_a_torch_dtype,
    object_path,
    objects_as_parameters,
    only_raises_not_implemented,
    params_of,
    plain_callee,
    read_facts,
    returns_inlined,
    rows_of_sequences,
    says_tokens,
    self_reads,
    shape_helper,
    shape_methods,
    tested_literals,
    text_table_keys,
)
from auditor.frontend.index import ClassInfo, FunctionInfo, ProjectIndex
from auditor.frontend.scope import class_node, cpython_tree, def_node
from auditor.interpret import enums
from auditor.settings import Settings

_PLAIN_VALUES = frozenset({"str", "int", "float", "bool", "bytes"})  # annotations of a value


# annotations of a plain config mapping (`model_cfg: dict`, `Dict[str, Any]`)
_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})


def _scalar_default(default: str | None) -> bool:
    """Is a parameter's default (its source text) a literal text, number or flag?"""
    if default is None:
        return False
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return isinstance(value, (str, bytes, int, float))  # (bools are ints; None is not here)


@dataclass(frozen=True)
class HostRole:
    """The parameter a host mirror receives its device pool by, and how that was seen."""

    parameter: str
    annotation: str | None  # the class name it is annotated with, if any
    reads: frozenset[str]  # attributes read off it (`gpu_pool.k_cache`)


class RoleBook:
    """Per class: the token, layer and device-pool parameters, by name or by behaviour."""

    def __init__(self, index: ProjectIndex, settings: Settings, trees: dict | None = None):
        self.index = index
        self.settings = settings
        self.trees = trees if trees is not None else {}
        self._facts: dict[int, Facts | None] = {}
        self._roles: dict[int, Roles | None] = {}
        self.hosts: dict[int, HostRole] = {}  # filled by pairing for hosts seen by behaviour
        self._plain: dict[int, Facts] = {}  # facts before objects_as_parameters
        self._pools_taken: dict[int, str] = {}  # a host's device parameter: no config object
        self._helper_modules: dict[int, list] = {}  # modules of the helpers read as its own
        # (device, sibling in the host's place) -> values the function building both gives
        # parameters nothing else gives (pairing/siblings.py site_defaults)
        self.given: dict[tuple[int, int], dict[str, Any]] = {}
        # every discovered file (catalog.py), searched for the calls building a class whose
        # config object is untyped (passed_classes.py); None: no such search
        self.parsed: list | None = None
        self._passed: dict[tuple[int, str], ClassInfo | None] = {}

    def facts(self, cls: ClassInfo) -> Facts | None:
        """What the class's methods (its MRO) do with its constructor's parameters."""
        if id(cls) not in self._facts:
            self._facts[id(cls)] = None  # while read: a class annotated with itself, in turn
            self._facts[id(cls)] = self._read(cls)
        return self._facts[id(cls)]

    def _read(self, cls: ClassInfo) -> Facts | None:
        init = cls.find_method("__init__")
        owner = init.owner if init is not None and init.owner is not None else None
        if owner is None:
            return None
        functions: list[ast.AST] = []
        params = None
        dtype_names: frozenset[str] = frozenset()
        inits: list[int] = []  # where each class's `__init__` of the order is in `functions`
        for klass in cls.mro():
            tree = cpython_tree(klass.module, self.trees)
            node = class_node(tree, klass) if tree is not None else None
            if node is None:
                continue
            methods = methods_of(node)
            inits.extend(
                len(functions) + i
                for i, m in enumerate(methods)
                if m.name == "__init__"  # type: ignore[attr-defined]
            )
            functions.extend(methods)
            dtype_names |= dtype_constants(tree)
            if klass is owner:
                found = constructor(node)
                params = params_of(found) if found is not None else None
        if params is None:
            return None
        if not self.named(cls):
            # `super().__init__(cfg.max_tokens + 1, ...)`: the base's constructor as called
            for here, there in zip(inits, inits[1:]):
                given = given_to_base(functions[here], functions[there])  # type: ignore[arg-type]
                if given is not None:
                    functions[there] = given
        if not self.named(cls):  # what its helpers read off its config (`latent_row(cfg)`)
            # `torch.zeros(self.page_shape())`, `GpuCache.get_kv_cache_shape(n, ...)`
            functions = shape_methods(
                functions,
                self._foreign_shapes(cls, functions, params),
                self._shape_helpers(cls, functions),
            )
            functions = functions + self._helpers(cls, functions, params)
            functions = returns_inlined(functions, self._returning_helpers(cls, functions))
        facts = read_facts(functions, params, dtype_names)
        if self.named(cls):  # the pack describes its engine's flags: only those that allocate
            for name in facts.set_only_flags:
                facts.flags.pop(name, None)
        self._plain[id(cls)] = facts
        read = self._objects_read(cls, facts, functions, params, dtype_names) or facts
        for each in {id(facts): facts, id(read): read}.values():
            each.table_keys = self._table_keys(cls, each)
            if not self.named(cls):
                self._helper_flags(cls, each)
        return read

    def _foreign_shapes(
        self, cls: ClassInfo, functions: list, params: list
    ) -> list[ast.FunctionDef]:
        """Staticmethods of other classes of the audited tree, called by the class's name
        (`GpuBlockCache.get_kv_cache_shape(self.num_blocks, ...)` in a swap space), and
        methods called on a parameter annotated with such a class (`primary.block_shape(n,
        b)`): where they only return a tuple, a shape the class allocates
        (behaviour.shape_methods)."""
        found: list[ast.FunctionDef] = []
        seen: set[tuple[str, str]] = set()
        mro = cls.mro()
        typed = {p.name: p.annotation for p in params if p.annotation}
        for function in functions:
            for node in walk.nodes(function):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id not in ("self", "cls")
                ):
                    continue
                key = (node.func.value.id, node.func.attr)
                if key in seen:
                    continue
                seen.add(key)
                instance = key[0] in typed
                owner = next(
                    (
                        named
                        for module in self._modules(cls)
                        if isinstance(
                            named := self.index.resolve_static(
                                module, typed[key[0]] if instance else key[0]
                            ),
                            ClassInfo,
                        )
                    ),
                    None,
                )
                method = owner.find_method(key[1]) if owner is not None else None
                if method is None or method.owner in mro:
                    continue
                static = "staticmethod" in method.decorators
                if static == instance or "classmethod" in method.decorators:
                    continue  # (a staticmethod by its class; an instance's method on it)
                tree = cpython_tree(method.module, self.trees)
                klass = class_node(tree, method.owner) if tree is not None else None
                node_found = def_node(klass.body, key[1]) if klass is not None else None
                if node_found is not None:
                    found.append(node_found)
        return found

    def _shape_helpers(self, cls: ClassInfo, functions: list) -> dict[str, ast.FunctionDef]:
        """The module-level functions of the audited tree its methods call by name (or off a
        module, `layout.k_block_shape(opts, dims)`) that return shapes (`nhd_page_shape(
        self.num_pages, ...)`, `k, v = kv_page_shapes(model, kv)`), as behaviour.shape_helper
        writes them: read where they are called."""
        called = {
            name
            for function in functions
            for node in walk.nodes(function)
            if (name := plain_callee(node)) is not None
        }
        found = {}
        for name in sorted(called):
            node = self._function_node(cls, name)
            helper = shape_helper(node) if node is not None else None
            if helper is not None:
                found[name] = helper
        return found

    def _helpers(self, cls: ClassInfo, functions: list, params: list) -> list:
        """The plain functions of the audited tree the class's methods call with a parameter
        or a `self.` attribute (`width, dt = index_row(cfg)`), each copied with what it is
        passed in place of its parameters, so that what it reads off a config (`cfg[
        "index_head_dim"]`, `cfg.get("index_fp8", True)`) is read as the class's; and the
        helpers those call, two levels deep."""
        found: list = []
        seen: set = set()
        todo = list(functions)
        for _ in range(2):
            more = []
            for name, given in helper_calls(todo, params):
                helper = self._function(cls, name)
                key = (name, tuple(sorted((str(k), ast.dump(v)) for k, v in given.items())))
                if helper is None or key in seen:
                    continue
                seen.add(key)
                copied = inlined(helper[0], given)
                if copied is not None:
                    more.append(copied)
                    self._helper_modules.setdefault(id(cls), []).append(helper[1])
            found.extend(more)
            todo = more
        return found

    def _returning_helpers(self, cls: ClassInfo, functions: list) -> dict:
        """The module-level functions its methods call by name that only return an expression
        (`layers_per_rank(config, mapping)`), read where they are called (returns_inlined)."""
        called = {
            node.func.id
            for function in functions
            for node in walk.nodes(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        found = {}
        for name in sorted(called):
            node = self._function_node(cls, name)
            if node is not None:
                found[name] = node
        return found

    def _helper_flags(self, cls: ClassInfo, facts: Facts) -> None:
        """A parameter passed to a plain function of the audited tree whose result sizes a
        buffer (`self.dtype = resolve_kv_dtype(kv_dtype)`) is a flag, at the literals that
        function tests it against to choose what it returns (behaviour.tested_literals)."""
        for name, calls in facts.helpers.items():
            for function_name, where in sorted(calls, key=str):
                members = self._enum_values(cls, function_name) if where == 0 else None
                if members:  # `KVDType(cfg["dtype"])`: the enum's values choose the member
                    values = facts.flags.setdefault(name, [])
                    values.extend(v for v in members if v not in values)
                    facts.closed.add(name)
                    continue
                found = self._function(cls, function_name)
                if found is None:
                    continue
                node, module = found
                if names_a_torch_dtype(node, where):  # `getattr(torch, name)` in the helper
                    facts.dtype_names_params.add(name)
                values = facts.flags.setdefault(name, [])
                values.extend(v for v in tested_literals(node, where) if v not in values)
                for table in indexed_tables(node, where):  # `FORMATS[fmt]`: its keys
                    keys = self._keys_in(module, table, 0) or ()
                    values.extend(k for k in keys if k not in values)
                    if keys:  # any other key fails the lookup
                        facts.closed.add(name)
                literal = literal_table_keys(node, where)  # `{"int8": torch.int8, ...}[fmt]`
                values.extend(k for k in literal if k not in values)
                if literal:
                    facts.closed.add(name)
                if not values:
                    facts.flags.pop(name)

    def _enum_values(self, cls: ClassInfo, name: str) -> list:
        """The member values (`BF16 = "bf16"`) of the enum class of the audited tree `name`
        means where the class's code is read, else []."""
        for module in self._modules(cls):
            found = self.index.resolve_static(module, name)
            if not isinstance(found, ClassInfo):
                continue
            tree = cpython_tree(found.module, self.trees)
            node = class_node(tree, found) if tree is not None else None
            if node is None or not any(ast.unparse(b).endswith("Enum") for b in node.bases):
                return []
            return [
                statement.value.value
                for statement in node.body
                if isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, (str, int))
            ]
        return []

    def _function_node(self, cls: ClassInfo, name: str) -> ast.FunctionDef | None:
        """The module-level function `name` means in the modules of the class's MRO."""
        found = self._function(cls, name)
        return found[0] if found is not None else None

    def _function(self, cls: ClassInfo, name: str):
        """(its node, its module), for the module-level function `name` means in the modules
        of the class's MRO."""
        for module in self._modules(cls):
            found = self.index.resolve_static(module, name)
            if isinstance(found, FunctionInfo):
                tree = cpython_tree(found.module, self.trees)
                node = def_node(tree.body, found.name) if tree is not None else None
                return (node, found.module) if node is not None else None
        return None

    def _modules(self, cls: ClassInfo) -> list:
        """Where the names its code uses are looked up: the modules of its MRO, then those of
        the helper functions read as its own (`_helpers`), whose tables and helpers they name."""
        modules = [klass.module for klass in cls.mro()]
        for module in self._helper_modules.get(id(cls), []):
            if all(module is not m for m in modules):
                modules.append(module)
        return modules

    def _table_keys(self, cls: ClassInfo, facts: Facts) -> dict[str, tuple[str, ...]]:
        """Per parameter, the keys of the dtype tables it indexes (`STR_DTYPE_TO_TORCH_DTYPE[
        cache_config.cache_dtype]`): the values a string flag takes besides its literals."""
        found: dict[str, tuple[str, ...]] = {}
        for name, tables in facts.tables.items():
            param = facts.params.get(name)
            # a plain string parameter nothing gives (`type_k: str`) takes the keys of any
            # table it indexes; otherwise only a dtype table's keys are its values
            readers = [dtype_table_keys]
            if param is not None and param.default is None and "." not in name:
                if param.annotation in (None, "str"):
                    readers.append(text_table_keys)
            keys: list[str] = []
            for reader in readers:
                for table in sorted(tables):
                    for module in self._modules(cls):
                        got = self._keys_in(module, table, 0, reader)
                        if got is not None:
                            keys.extend(k for k in got if k not in keys)
                            break
                if keys:
                    break
            if keys:
                found[name] = tuple(keys)
        return found

    def _keys_in(self, module, name: str, depth: int, reader=dtype_table_keys):
        """The keys of the table `name` in `module` (`reader` says which tables count),
        following `from x import name`."""
        tree = cpython_tree(module, self.trees)
        keys = reader(tree, name) if tree is not None else None
        if keys is not None or depth > 3 or name not in module.imports:
            return keys
        source, attr = module.imports[name]
        found = self.index.find_module(source, module) if attr is not None else None
        return self._keys_in(found, attr, depth + 1, reader) if found is not None else None

    def _objects_read(
        self, cls: ClassInfo, facts: Facts, functions: list, params: list, dtype_names
    ) -> Facts | None:
        """A class allocating per layer over a count read off an object its constructor takes
        (`range(cfg.num_layers)`, a leading `cfg.num_layers` dimension), which its parameters
        alone do not make a pool: read again with that object's attributes as parameters
        (behaviour.objects_as_parameters), kept if that makes it one. Not for an object that
        is a pool (a pool's helper reads its pool's counts: the pool is measured)."""
        # objects whose attribute a layer loop or a leading dimension reads (`range(cfg.n)`,
        # `range(s.n)` after `s = self.cfg`); not a count computed from one (`len(p.layers)`
        # in SGLang's Mamba pools is no count of the audit's)
        candidates = facts.range_roots
        if self.named_device(cls):
            return self._typed_objects(cls, facts, functions, params, dtype_names)
        hints = frozenset(self.settings.token_params), frozenset(self.settings.layer_names())
        if infer_roles(facts, *hints) is not None:
            return self._config_objects(cls, facts, functions, params, dtype_names)
        if not candidates and id(cls) in self._pools_taken:
            # a host reading config objects besides its pool (`draft_layer_ids(cfg)`,
            # `cfg.kv_lora_rank`): they are stand-ins, as its device's are
            others = self._objects_read_besides(cls, facts)
            if not others or self.named(cls):
                return None
            expanded = read_facts(*objects_as_parameters(functions, params, others), dtype_names)
            return self._as_objects(cls, facts, others, expanded)
        if not candidates:
            return self._tokens_off_objects(cls, facts, functions, params, dtype_names)
        roots = {
            r: self._object_path(cls, r, facts)
            for r in sorted(candidates)
            if r in facts.params and not self._no_config(cls, r, facts)
        }
        others = self._objects_read_besides(cls, facts, candidates)
        if id(cls) in self._pools_taken and roots:
            # a host counting its own layers off a config object (a draft's `cfg.draft_layers`)
            # besides the pool it takes: both objects read as stand-ins, its roles its host's
            objects = {**roots, **others}
            expanded = read_facts(*objects_as_parameters(functions, params, objects), dtype_names)
            return self._as_objects(cls, facts, objects, expanded)
        if not roots:
            # counting its layers off a pool it takes (a mirror, or a pool's helper): the
            # config objects it reads besides are stand-ins (`host_cache_tokens` of
            # `kv_cache_config`), for a class the pack's names do not describe; never a pool
            # by them (its layers are not theirs)
            if not others or self.named(cls):
                return None
            expanded = read_facts(*objects_as_parameters(functions, params, others), dtype_names)
            if infer_roles(expanded, *hints) is not None:
                return None
            return self._as_objects(cls, facts, others, expanded)
        expanded = read_facts(*objects_as_parameters(functions, params, roots), dtype_names)
        found = infer_roles(expanded, *hints)
        kept = None  # tokens the class keeps under a token name (`self.max_tokens = ...`)
        widen = found is None
        if found is not None and not self._says_tokens(found, hints[0]):
            kept = found if _kept_as_tokens(expanded, found.tokens) else None
            if not others or {p.name for p in params} & set(self.settings.anchor_params):
                if kept is None:  # (a host built on an anchor host counts the anchor's tokens)
                    return None
            else:
                widen = True  # tokens off another config object, maybe (`runtime["max_tokens"]`)
        if widen:
            # the layers off one object, the tokens off another (`model.num_layers`,
            # `kv_cache_config.max_tokens // self.tokens_per_block`): both counting objects,
            # when the tokens lead a per-layer allocation's dimensions after the layers
            roles = None
            if others:
                widened = read_facts(
                    *objects_as_parameters(functions, params, {**roots, **others}), dtype_names
                )
                roles = infer_roles(widened, *hints)
            if (
                roles is None
                or roles.layers.split(".")[0] not in roots.values()
                or not self._says_tokens(roles, hints[0], widened=True)
            ):
                if kept is None:  # the tokens named for what they count, on weaker evidence
                    return None
            else:
                roots, expanded = {**roots, **others}, widened
        elif others:
            # a pool by its counting object: the other config objects it reads are stand-ins
            # too (`self.block_size = cache_config.block_size`), never what makes it a pool
            widened = read_facts(
                *objects_as_parameters(functions, params, {**roots, **others}), dtype_names
            )
            if infer_roles(widened, *hints) == infer_roles(expanded, *hints):
                roots, expanded = {**roots, **others}, widened
        return self._as_objects(cls, facts, roots, expanded)

    def _typed_objects(
        self, cls: ClassInfo, facts: Facts, functions: list, params: list, dtype_names
    ) -> Facts | None:
        """A pool the pack's names describe (`size`, `layer_num`) that also takes an object
        annotated with a class of the audited tree, with no default, and reads its sizes off
        it (`dims: AttnDims`, `dims.num_heads`, `dims.qk_head_dim`), or a config mapping
        (`model_cfg: dict`, `model_cfg["head_dim"]`): read again with its attributes (keys)
        as parameters, so it is built with a stand-in whose attributes
        are config values (before, nothing gave it: "missing argument"). Not a pool, an enum
        or a value the pack or the matrix gives."""
        given = set(self.settings.token_params) | set(self.settings.layer_names())
        given |= set(self.settings.object_roots())  # (`cache_params.shape.temporal` listed)
        given |= {k for k in self.settings.__dict__["matrix"] if "." not in k}
        objects = {}
        for name in sorted(facts.read_attributes):
            param = facts.params.get(name)
            if param is None or param.default is not None or name in given:
                continue
            annotation = (param.annotation or "").strip("'\"")
            mapping = annotation.split("[", 1)[0].rpartition(".")[2] in _MAPPINGS
            if not mapping and not annotation.isidentifier():
                continue
            found = None if mapping else self.index.resolve_static(cls.module, annotation)
            if not (mapping or isinstance(found, ClassInfo)) or self._no_config(cls, name, facts):
                continue
            objects[name] = self._object_path(cls, name, facts)
        if not objects:
            return None
        expanded = read_facts(*objects_as_parameters(functions, params, objects), dtype_names)
        return self._as_objects(cls, facts, objects, expanded)

    def _config_objects(
        self, cls: ClassInfo, facts: Facts, functions: list, params: list, dtype_names
    ) -> Facts | None:
        """A pool by its own parameters (`n_tokens`, `layer_end`) that also takes a config
        object (or dict) it reads sizes off (`cfg["kv_lora_rank"]`, `cfg.head_dim`), for a
        class the pack's names do not describe: read again with that object's attributes as
        parameters, so that it is built with a stand-in whose attributes are config values
        (otherwise an untyped `cfg` is sampled as a number). Kept only if the counts stay."""
        if self.named(cls):
            return None
        hints = frozenset(self.settings.token_params), frozenset(self.settings.layer_names())
        others = {
            name: self._object_path(cls, name, facts)
            for name in sorted(facts.read_attributes)
            if name in facts.params
            and name not in facts.called
            and facts.params[name].default in (None, "None")
            and not self._no_config(cls, name, facts)
        }
        if not others:
            return None
        expanded = read_facts(*objects_as_parameters(functions, params, others), dtype_names)
        if infer_roles(expanded, *hints) != infer_roles(facts, *hints):
            return None
        return self._as_objects(cls, facts, others, expanded)

    def _as_objects(
        self, cls: ClassInfo, facts: Facts, objects: dict[str, str], expanded: Facts
    ) -> Facts:
        """`expanded`, facts read with `objects`' attributes as parameters, told which objects
        those are, their class defaults and classes (and the loops of the plain facts)."""
        expanded.objects = objects
        expanded.range_paths = facts.range_paths
        expanded.object_defaults = self._field_defaults(cls, objects, facts)
        self._object_classes(cls, objects, expanded)
        return expanded

    def _objects_read_besides(
        self,
        cls: ClassInfo,
        facts: Facts,
        skipped: frozenset[str] | set[str] = frozenset(),
    ) -> dict[str, str]:
        """The parameters whose attributes the class reads (`skipped` aside), config objects
        (neither a pool nor an enum member), each with its path."""
        return {
            name: self._object_path(cls, name, facts)
            for name in sorted(set(facts.read_attributes) - set(skipped))
            if name in facts.params and not self._no_config(cls, name, facts)
        }

    def _tokens_off_objects(
        self, cls: ClassInfo, facts: Facts, functions: list, params: list, dtype_names
    ) -> Facts | None:
        """A class taking its layer count as a parameter (`n_layer`) and reading its token
        count off a config object (`cfg.n_cells`, `torch.zeros((n_layer, cfg.n_cells, ...))`):
        read again with the objects' attributes as parameters, kept when that makes it a pool
        counting layers by the parameter and tokens by an attribute named for tokens."""
        if self.named(cls):
            return None
        objects = self._objects_read_besides(cls, facts)
        if not objects:
            return None
        hints = frozenset(self.settings.token_params), frozenset(self.settings.layer_names())
        expanded = read_facts(*objects_as_parameters(functions, params, objects), dtype_names)
        found = infer_roles(expanded, *hints)
        if (
            found is None
            or found.layers not in facts.params
            or "." not in (found.tokens or "")
            or not self._says_tokens(found, hints[0], widened=True)
        ):
            return None
        return self._as_objects(cls, facts, objects, expanded)

    @staticmethod
    def _says_tokens(roles: Roles, token_hints: frozenset, widened: bool = False) -> bool:
        """A pool read through its config objects: its token count, when an object's attribute
        (or, `widened`, always), must be named for tokens (`max_tokens`, `num_gpu_blocks`), the
        evidence of a per-layer allocation over a config field being weaker than over a
        parameter (SGLang's speculative workers loop over `speculative_num_steps`); or its
        rows must be what a byte budget holds (measured per row held)."""
        if roles.tokens is None and roles.budget:
            return True  # as many rows as a byte budget read off it holds (`swap_space_gib`)
        tokens = roles.tokens or ""
        if not widened and "." not in tokens:
            return True
        if rows_of_sequences(roles.tokens, roles.block):  # `cfg.max_batch_size` sequences
            return True  # of the `max_cache_len` the pool keeps
        return tokens in token_hints or says_tokens(tokens)

    def _object_path(self, cls: ClassInfo, name: str, facts: Facts) -> str:
        """The path a config object's attributes are parameters under: its annotation's
        class, else the one class the code constructs the pool with (passed_classes.py), else
        `config`."""
        param = facts.params[name]
        if param.annotation is None:
            klass = self.passed_class(cls, name, facts)
            if klass is not None:
                return klass.name
        return object_path(param)

    def passed_class(self, cls: ClassInfo, name: str, facts: Facts) -> ClassInfo | None:
        """The class of the objects the code passes an untyped parameter (passed_classes)."""
        key = (id(cls), name)
        if key not in self._passed:
            found = None
            init = cls.find_method("__init__")
            if self.parsed is not None and init is not None and name in facts.params:
                params = init.node.params
                positional = [p.name.value for p in [*params.posonly_params, *params.params]]
                positional = positional[1:] if positional[:1] == ["self"] else positional
                position = positional.index(name) if name in positional else None
                found = passed_class(self.index, self.parsed, self.trees, cls, name, position)
            self._passed[key] = found
        return self._passed[key]

    def _object_class(
        self, cls: ClassInfo, owner: ClassInfo, name: str, path: str, facts: Facts
    ) -> ClassInfo | None:
        """The class of the object parameter `name` read under `path`: its annotation's, or
        the one the code passes it (an untyped parameter)."""
        facts = self._plain.get(id(cls), facts)  # (read again, objects are `object`-typed)
        annotation = facts.params[name].annotation if name in facts.params else None
        if annotation is None:
            klass = self.passed_class(cls, name, facts) if name in facts.params else None
            return klass if klass is not None and klass.name == path else None
        if path not in annotation:
            return None
        klass = self.index.resolve_static(owner.module, path)
        return klass if isinstance(klass, ClassInfo) else None

    def _field_defaults(self, cls: ClassInfo, roots: dict[str, str], facts: Facts) -> dict:
        """The defaults the classes of the objects' annotations give their fields, each under
        the object's path (`CacheConfig.quant_policy` -> `0`)."""
        init = cls.find_method("__init__")
        owner = init.owner if init is not None and init.owner is not None else cls
        found: dict[str, str] = {}
        for name, path in roots.items():
            klass = self._object_class(cls, owner, name, path, facts)
            if klass is not None:
                self._defaults_of(klass, path, found, 0)
        return found

    def _object_classes(self, cls: ClassInfo, roots: dict[str, str], facts: Facts) -> None:
        """The classes the objects' annotations name (`spec: KVSpec`), and the attributes
        their properties compute (`KVSpec.page_bytes`), into `facts`."""
        init = cls.find_method("__init__")
        owner = init.owner if init is not None and init.owner is not None else cls
        for name, path in roots.items():
            klass = self._object_class(cls, owner, name, path, facts)
            if klass is None:
                continue
            facts.object_classes[path] = klass
            reads: dict[str, set[str]] = {}
            declared: dict[str, str] = {}  # the class's fields (`num_layers: int`) -> type
            roots: dict[str, set[str]] = {}  # what each method reads `self.` names of
            nested: dict[str, set[str]] = {}  # the `self.x` it reads into (`self.x.y`)
            overridden = self._overridden(klass)
            # (a base of fields alone, `class Dims: num_layers: int`, is read too when any
            # class of the order has a method: its fields are what the methods read)
            lookup = any(each.methods for each in klass.mro())
            for each in klass.mro():
                tree = cpython_tree(each.module, self.trees) if lookup else None
                node = class_node(tree, each) if tree is not None else None
                for field_name, kind in (_class_fields(node) if node is not None else {}).items():
                    declared.setdefault(field_name, kind)
                for member in each.methods.values():
                    method = def_node(node.body, member.name) if node is not None else None
                    if member.name in overridden:
                        continue  # (the object passed may be a subclass's: sampled)
                    if member.is_property():
                        name = member.name
                    elif method is not None and _computed_alone(member, method):
                        name = f"{member.name}()"  # `layout.bytes_per_token()`: as a property
                    else:
                        continue
                    if name in reads:
                        continue
                    reads[name] = _self_reads(method) if method is not None else set()
                    if name.endswith("()"):
                        reads[name] |= _self_calls(method)
                        roots[name] = _self_names(method)
                        nested[name] = _read_into(method)
                        reads[name] |= nested[name]  # (`self.dtype.itemsize`: the dtype)
                    named = fields_naming_torch_dtypes(method) if method else {}
                    for field_name, texts in named.items():
                        # `getattr(torch, self.dtype)`: the field names a dtype, sampled as
                        # the texts it is compared with, then the pack's dtypes' names
                        # (matrix.py), not as a number
                        facts.dtype_names_params.add(f"{path}.{field_name}")
                        said = facts.dtype_name_texts.setdefault(f"{path}.{field_name}", [])
                        said.extend(t for t in texts if t not in said)
                    for field_name, table in _indexed_tables(method):
                        keys = self._keys_in(each.module, table, 0)
                        if keys is not None:
                            facts.field_table_keys.setdefault(f"{path}.{field_name}", keys)
            # a method is run on the stand-in only where it computes from the class's own
            # fields (a dataclass's), through properties and such methods; one reading what
            # its constructor sets (`self.hf_config.hidden_size`) stays a sampled value
            # (fields of a number, text or dtype: what a stand-in's field holds; a field
            # holding a dict or an object, `hf_config: Dict[str, Any]`, is not sampled so)
            scalar = {n for n, kind in declared.items() if _SCALAR_FIELD.fullmatch(kind)}
            known = scalar | set(reads)  # such fields, properties, such methods
            # read into: a property's result, or a field holding a dtype (`.itemsize`)
            into = {n for n in reads if not n.endswith("()")}
            into |= {n for n, kind in declared.items() if "dtype" in kind}
            for name in [n for n in reads if n.endswith("()")]:
                fields = _through_properties(name, reads)
                if not roots[name] <= known or not fields <= scalar:
                    del reads[name]
                elif not nested[name] <= into:
                    del reads[name]
            for name in [n for n in reads if n.endswith("()")]:
                if any(r.endswith("()") and r not in reads for r in reads[name]):
                    del reads[name]  # (calls a method left sampled)
            for name in reads:
                reads[name] = {r for r in reads[name] if not r.endswith("()") or r in reads}
            for name in reads:
                facts.object_properties.add(f"{path}.{name}")
                fields = _through_properties(name, reads)
                facts.property_fields[f"{path}.{name}"] = {f"{path}.{f}" for f in fields}

    def _overridden(self, klass: ClassInfo) -> set[str]:
        """The methods a class of the tree deriving from `klass` defines again: the object
        passed may be of that class, and its own method, not `klass`'s, is what runs."""
        below = self.index.all_subclasses(klass)
        return {name for sub in below if sub is not klass for name in sub.methods}

    def _defaults_of(self, klass: ClassInfo, path: str, found: dict, depth: int) -> None:
        """`klass`'s field defaults under `path`, and those of the fields holding an object
        its defaults build (`cache: CacheSpec = field(default_factory=CacheSpec)` ->
        `ServeConfig.cache.dtype`), a few levels deep."""
        for each in reversed(klass.mro()):
            tree = cpython_tree(each.module, self.trees)
            node = class_node(tree, each) if tree is not None else None
            if node is None:
                continue
            found.update({f"{path}.{k}": v for k, v in field_defaults(node).items()})
            if depth >= 3:
                continue
            for name, annotation in field_classes(node).items():
                inner = self.index.resolve_static(each.module, annotation)
                if isinstance(inner, ClassInfo) and inner is not klass:
                    self._defaults_of(inner, f"{path}.{name}", found, depth + 1)

    def unfinished(self, cls: ClassInfo) -> bool:
        """A base its subclasses complete: its constructor reaches (through `self.` reads and
        the methods it calls) a member whose body only raises NotImplementedError, which a
        subclass in the tree overrides (`row_width` of a store whose subclasses say how wide a
        row is). Built as it is, it raises; its subclasses are the pools."""
        key = ("unfinished", id(cls))
        if key not in self.trees:
            self.trees[key] = self._unfinished(cls)
        return self.trees[key]

    def _unfinished(self, cls: ClassInfo) -> bool:
        subclasses = [c for c in self.index.all_subclasses(cls) if c is not cls]
        if not subclasses:
            return False
        reached = self._reached(cls)
        if reached is None:
            return True  # it raises NotImplementedError where a subclass completes it
        if any(allocates(node) for node in reached):
            return False
        # it allocates nothing when built, and its subclasses' constructors call a method of
        # its own that does (exllamav2's cache base, whose subclasses call the
        # `create_state_tensors` it defines): their base, no pool
        own = {id(node) for node in reached}
        for subclass in subclasses:
            for node in self._reached(subclass) or []:
                if id(node) in own or not allocates(node):
                    continue
                method = cls.find_method(node.name)
                if method is not None and method.owner is cls:
                    return True
        return False

    def _reached(self, cls: ClassInfo) -> list | None:
        """The methods `cls.__init__` reaches through `self.` reads (CPython trees), or None
        when one it reaches only raises NotImplementedError and a subclass overrides it."""
        subclasses = [c for c in self.index.all_subclasses(cls) if c is not cls]
        seen: set[str] = set()
        reached = []
        todo = ["__init__"]
        while todo:
            name = todo.pop()
            if name in seen or len(seen) > 40:
                continue
            seen.add(name)
            method = cls.find_method(name)
            owner = method.owner if method is not None else None
            tree = cpython_tree(owner.module, self.trees) if owner is not None else None
            klass = class_node(tree, owner) if tree is not None else None
            node = def_node(klass.body, name) if klass is not None else None
            if node is None:
                continue
            if name != "__init__" and only_raises_not_implemented(node):
                if any(
                    (m := c.find_method(name)) is not None and m.owner is not owner
                    for c in subclasses
                ):
                    return None
            reached.append(node)
            todo.extend(self_reads(node))
        return reached

    def _no_config(self, cls: ClassInfo, name: str, facts: Facts) -> bool:
        """Is the parameter something other than a config object whose attributes are values:
        a pool (_pool_typed), or a member of an enum of the audited tree (`dtype: CacheDType`,
        whose `torch_dtype` its class computes from the member: matrix.enum_members)?"""
        if self._pool_typed(cls, name, facts):
            return True
        if name in facts.params and _scalar_default(facts.params[name].default):
            return True  # `kv_cache_dtype="auto"`: one value (`.startswith` is a text's)
        annotation = facts.params[name].annotation if name in facts.params else None
        if annotation is None or not annotation.isidentifier():
            return False
        if annotation in _PLAIN_VALUES:  # `mode: str`: one value, never an object
            return True
        found = self.index.resolve_static(cls.module, annotation)
        return isinstance(found, ClassInfo) and enums.is_enum(found)

    def _pool_typed(self, cls: ClassInfo, name: str, facts: Facts) -> bool:
        """Is the parameter annotated with a class of the audited tree that allocates tensors
        itself (a pool, whose helper this class is), or the pool a host was seen to take (or
        takes by the pack's name for it, `device_pool`)?"""
        if self._pools_taken.get(id(cls)) == name:
            return True
        if name in self.settings.device_pool_params:  # the pool a host takes, by the pack's
            return True  # name for it: what it reads off it is the pool's, never sampled
        annotation = facts.params[name].annotation if name in facts.params else None
        for word in re.findall(r"[\w.]+", annotation or ""):
            found = self.index.resolve_static(cls.module, word)
            if isinstance(found, ClassInfo) and found is not cls:
                other = self.facts(found)
                if other is not None and other.allocated:
                    return True
        return False

    def objects(self, cls: ClassInfo) -> dict[str, str]:
        """Constructor parameters read as objects whose attributes are parameters, each with
        its path (`shape` -> `ModelShape`): built as stand-ins whose attributes are config
        values (`ModelShape.n_layers`)."""
        facts = self.facts(cls)
        return facts.objects if facts is not None else {}

    def attributes(self, cls: ClassInfo) -> set[str]:
        """What instances of the class have by its code (its MRO): `self.x = ...`, methods,
        properties and class attributes (behaviour.instance_attributes)."""
        key = ("attributes", id(cls))
        if key not in self.trees:
            names: set[str] = set()
            for klass in cls.mro():
                tree = cpython_tree(klass.module, self.trees)
                node = class_node(tree, klass) if tree is not None else None
                if node is not None:
                    names |= instance_attributes(node)
            self.trees[key] = names
        return self.trees[key]

    def named_device(self, cls: ClassInfo) -> bool:
        names = parameter_names(cls)
        layers = self.settings.layer_names()
        return any(n in self.settings.token_params for n in names) and any(
            n in layers for n in names
        )

    def named(self, cls: ClassInfo) -> bool:
        """Does the pack's naming describe this class (a device, host or record host)?"""
        names = parameter_names(cls)
        settings = self.settings
        return self.named_device(cls) or any(
            n in settings.device_pool_params or n in settings.buffer_info_params for n in names
        )

    def inferred(self, cls: ClassInfo) -> Roles | None:
        """Roles read off the shapes, for a class the pack's names do not describe: a device
        pool's token and layer counts, or a host mirror's (seen by behaviour) token count."""
        if id(cls) not in self._roles:
            roles = None
            facts = self.facts(cls) if not self.named(cls) else None
            if facts is None and not self.named_device(cls):  # a host by the pack's names
                own = self.facts(cls)  # reading a config object: its counts are read as well
                facts = own if own is not None and own.objects else None
                if facts is None and own is not None and not self._counts_named(cls, own):
                    roles = self._own_tokens(cls, own)
            if facts is not None:
                host = self.hosts.get(id(cls))
                hints = (
                    frozenset(self.settings.token_params),
                    frozenset(self.settings.layer_names()),
                )
                roles = infer_roles(
                    facts, *hints, layers_from=host.parameter if host is not None else None
                )
                if roles is None and host is not None and facts.objects:
                    # a mirror counting its layers off the config object, as its pool does
                    roles = infer_roles(facts, *hints)
            self._roles[id(cls)] = roles
        return self._roles[id(cls)]

    def _counts_named(self, cls: ClassInfo, facts: Facts) -> bool:
        """Does the class take or keep a count of the pack's token names (`size`)?"""
        names = set(self.settings.token_params)
        return bool(names & set(facts.params) or names & self.attributes(cls))

    def _own_tokens(self, cls: ClassInfo, facts: Facts) -> Roles | None:
        """A host by the pack's device-pool name that counts its tokens by a name of its own
        (`host_tokens`): read off its shapes, as for a host seen by behaviour, rather than
        measured against a count it never reads (which would make every figure 0)."""
        params = [p for p in self.device_params(cls) if p in facts.params]
        if not params:
            return None
        hints = frozenset(self.settings.token_params), frozenset(self.settings.layer_names())
        roles = infer_roles(facts, *hints, layers_from=params[0])
        if roles is None or (roles.tokens is None and not roles.budget):
            return None
        return roles  # (a count it keeps of what a byte budget buys: measured per row held)

    def add_host(self, cls: ClassInfo, role: HostRole) -> None:
        """A class seen to mirror a device pool: its roles are a host's from now on."""
        self.hosts[id(cls)] = role
        self._roles.pop(id(cls), None)
        facts = self._facts.get(id(cls))
        if facts is not None and (
            role.parameter in facts.objects  # its pool, not a config
            # or a config object it reads its rows off besides its pool (`cfg.host_pages`),
            # read as a stand-in now that the pool is known to give its layers
            or (not facts.objects and facts.range_roots - {role.parameter})
            # or, for a class no pack names, any object it reads besides its pool
            or (
                not facts.objects
                and not self.named(cls)
                and (set(facts.read_attributes) & set(facts.params)) - {role.parameter}
            )
        ):
            self._pools_taken[id(cls)] = role.parameter  # (read again without it)
            self._facts[id(cls)] = self._read(cls) or self._plain[id(cls)]

    def tokens(self, cls: ClassInfo | None) -> list[str]:
        """The token-count parameters (and, for a host computing its own, the attribute)."""
        names = list(self.settings.token_params)
        roles = self.inferred(cls) if cls is not None else None
        if roles is not None:
            names += [n for n in (roles.tokens, roles.count_attribute) if n and n not in names]
        return names

    def layers(self, cls: ClassInfo | None) -> list[str]:
        names = list(self.settings.layer_names())
        if cls is None:
            return names
        roles = self.inferred(cls)
        if id(cls) in self.hosts:  # a host's layer count is its device's, or read off the
            objects = self.objects(cls)  # config object they both take (`shape.n_layers`)
            if objects and (
                roles is None or roles.layers.partition(".")[0] not in objects.values()
            ):
                # named by the pack, or read as a host (its device's attributes for counts):
                # its count off the object, as its own facts say
                roles = infer_roles(self.facts(cls)) or roles  # type: ignore[arg-type]
            if roles is not None and roles.layers.partition(".")[0] in objects.values():
                return names + [roles.layers]
            own = self._own_layers(cls, objects)
            if own is not None and roles is not None and own == roles.tokens:
                own = None  # its rows read off the object (`cfg.host_pages`), not its layers
            return names + [own] if own is not None else names
        if roles is None:
            return names
        facts = self.facts(cls)  # a stage's count it keeps (`self.n_layers`), then its path
        kept = sorted(facts.stage_counts) if facts is not None else []
        return names + [n for n in kept if n not in names] + [roles.layers]

    def _own_layers(self, cls: ClassInfo, objects: dict[str, str]) -> str | None:
        """A host whose layer loop runs over one count read off a config object it takes
        (a draft cache's `range(cfg.draft_layers)`, not its device's layers): that count."""
        facts = self.facts(cls)
        if facts is None:
            return None
        found = {
            f"{objects[root]}.{rest}"
            for path in facts.range_paths
            for root, _, rest in [path.partition(".")]
            if root in objects and rest
        }
        return found.pop() if len(found) == 1 else None

    def id_lists(self, cls: ClassInfo | None) -> frozenset[str]:
        """Its layer count when the code counts a list's length (`len(params.layer_ids)`):
        built as that many ids, `list(range(layers))`."""
        roles = self.inferred(cls) if cls is not None else None
        facts = self.facts(cls) if roles is not None else None
        if facts is not None and roles.layers in facts.lengths:
            return frozenset((roles.layers,))
        if roles is not None and roles.layers.rpartition(".")[2].endswith("layer_ids"):
            return frozenset((roles.layers,))  # a list of ids by its name (`sorted(layer_ids)`)
        return frozenset()

    def range_pairs(self, cls: ClassInfo | None) -> frozenset[str]:
        """Its layer count when the code is given a stage's (start, end) and unpacks it
        (`self.start_layer, self.end_layer = layer_range`): built as `(0, layers)`."""
        roles = self.inferred(cls) if cls is not None else None
        facts = self.facts(cls) if roles is not None else None
        if facts is not None and roles.layers in facts.range_pairs:
            return frozenset((roles.layers,))
        return frozenset()

    def block(self, cls: ClassInfo | None) -> str | None:
        roles = self.inferred(cls) if cls is not None else None
        return roles.block if roles is not None else None

    def device_params(self, cls: ClassInfo | None) -> list[str]:
        names = list(self.settings.device_pool_params)
        host = self.hosts.get(id(cls)) if cls is not None else None
        return names + [host.parameter] if host is not None else names

    def fixed(self, cls: ClassInfo) -> set[str]:
        """Parameters that are never config dimensions of this class."""
        return (
            set(self.tokens(cls))
            | set(self.layers(cls))
            | set(self.device_params(cls))
            | set(self.settings.buffer_info_params)
        )

    def key(self, *classes: ClassInfo | None) -> list:
        """What the roles of these classes are, for cache keys (they depend on other files)."""
        return [
            [self.tokens(c), self.layers(c), self.block(c), self.device_params(c)]
            for c in classes
            if c is not None
        ]

    def find_host_role(
        self, cls: ClassInfo, devices: list[ClassInfo], device_buffers: set[str]
    ) -> HostRole | None:
        """The parameter by which a class not named a host receives one of these device pools:
        annotated with a device class or a base of one, or untyped with a device's buffers
        read off it, or untyped and sizing its allocations by attributes (`src.n_layers`,
        `src.dtype`) that a device pool has, all of them."""
        if self.facts(cls) is None:
            return None
        facts = self._plain.get(id(cls))  # the objects' attributes as read: a pool's buffers
        if facts is None:
            return None
        init = cls.find_method("__init__")
        owner = init.owner if init is not None and init.owner is not None else cls
        device_ids = {id(d) for d in devices}
        counts = set(self.settings.token_params) | set(self.settings.layer_names())
        for name, param in facts.params.items():
            if name in facts.called:  # a class or a factory, not a pool
                continue
            reads = frozenset(facts.read_attributes.get(name, ()))
            if param.annotation is not None:
                for word in re.findall(r"[A-Za-z_][\w.]*", param.annotation):
                    found = self.index.resolve_static(owner.module, word)
                    if isinstance(found, ClassInfo) and any(
                        id(c) in device_ids for c in self.index.all_subclasses(found)
                    ):
                        return HostRole(name, word, reads)
            elif reads & device_buffers:
                return HostRole(name, None, reads)
            elif (  # its buffers are sized by attributes every one of which a device pool has
                name in facts.sized_by
                and reads
                and any(reads <= self.attributes(d) for d in devices)
                and not all(names_a_count(a) or a in counts for a in reads)
            ):  # ... and not only counts any pool has (`anchor_host.size`, `.page_size`)
                # typed as its callers type it, where every call passes one device class
                klass = self.passed_class(cls, name, facts)
                typed = klass.name if klass is not None and id(klass) in device_ids else None
                return HostRole(name, typed, reads)
        return None


def _kept_as_tokens(facts: Facts, tokens: str | None) -> bool:
    """Is the dimension counting `tokens` kept in an attribute or local the code names for
    tokens (`self.max_tokens = pages_per_chunk * spec.page_size`, then `torch.empty((layers,
    self.max_tokens, row))`)? The code says what it counts, as a parameter's name would. Asked
    only where the tokens read off a second config object say nothing better."""
    if tokens is None:
        return False
    for dims, keys in zip(facts.shapes, facts.shape_keys):
        for dim, key in zip(dims, keys):
            if key and tokens in dim and says_tokens(key):  # (its last attribute)
                return True
    return False


def _indexed_tables(function: ast.FunctionDef | None) -> list[tuple[str, str]]:
    """(field, table) for each module-level table a method indexes with one of its object's
    fields (`_DTYPES[self.dtype]`, `_DTYPES.get(self.dtype)`)."""
    found: list[tuple[str, str]] = []
    for node in walk.nodes(function) if function is not None else []:
        table, key = None, None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            table, key = node.value.id, node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.args
        ):
            table, key = node.func.value.id, node.args[0]
        if (
            table is not None
            and isinstance(key, ast.Attribute)
            and isinstance(key.value, ast.Name)
            and key.value.id == "self"
        ):
            found.append((key.attr, table))
    return found


def _self_reads(function: ast.FunctionDef) -> set[str]:
    """The `self.x` attributes a method reads as values (not `self.cfg.x`, `self.f()`), and
    the keys it reads of a field holding a dict (`self.cfg["rank"]`, `self.cfg.get("rank")`
    -> `cfg.rank`: a config given as a dict, whose keys are its attributes; a key read with
    a fallback, `self.cfg.get("dtype", "bf16")`, is the code's own fallback)."""
    nodes = walk.nodes(function)
    bases = {id(n.value) for n in nodes if isinstance(n, (ast.Attribute, ast.Subscript))}
    bases |= {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    reads = {
        node.attr
        for node in nodes
        if _self_field(node) and isinstance(node.ctx, ast.Load) and id(node) not in bases
    }
    for node in nodes:
        key = None
        if isinstance(node, ast.Subscript) and _self_field(node.value):
            field, key = node.value.attr, node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and _self_field(node.func.value)
            and len(node.args) == 1
            and not node.keywords
        ):
            field, key = node.func.value.attr, node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            if key.value.isidentifier():
                reads.add(f"{field}.{key.value}")
    return reads


def _computed_alone(member: FunctionInfo, method: ast.FunctionDef) -> bool:
    """A method called with nothing but its object (`def bytes_per_token(self)`): what it
    returns is computed from the object's fields, as a property's is; run on the stand-in
    rather than sampled as a number of its own."""
    if member.has_decorator("staticmethod", "classmethod") or not method.args.args:
        return False
    if member.name.startswith("__") and member.name.endswith("__"):
        return False  # (`__init__`, `__post_init__`: Python calls them, not the code)
    given = method.args
    required = len(given.posonlyargs) + len(given.args) - len(given.defaults)
    return required == 1 and None not in given.kw_defaults and given.vararg is None


# a field's annotation saying a number, a text or a dtype (`Optional[int]` too)
_SCALAR_FIELD = re.compile(
    r"(?:(?:typing\.)?Optional\[)?(?:int|float|bool|str|(?:torch\.)?dtype)\]?"
    r"|(?:int|float|bool|str|(?:torch\.)?dtype)\s*\|\s*None"
)


def _class_fields(node: ast.ClassDef) -> dict[str, str]:
    """The fields a class body declares (`num_layers: int`, `dtype_name: str = "bf16"`), each
    with its annotation's text."""
    return {
        item.target.id: ast.unparse(item.annotation)
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }


def _read_into(function: ast.FunctionDef) -> set[str]:
    """The `self.x` a method reads into (`self.hf_config.hidden_size`, `self.sizes["k"]`)."""
    return {
        node.value.attr  # type: ignore[attr-defined]
        for node in walk.nodes(function)
        if isinstance(node, (ast.Attribute, ast.Subscript)) and _self_field(node.value)
    }


def _self_names(function: ast.FunctionDef) -> set[str]:
    """Every `self.x` a method reads, as a value or into (`self.hf_config.hidden_size`,
    `self.dtype.itemsize`), its own methods called as `x()`."""
    called = {id(n.func) for n in walk.nodes(function) if isinstance(n, ast.Call)}
    return {
        f"{node.attr}()" if id(node) in called else node.attr
        for node in walk.nodes(function)
        if _self_field(node) and isinstance(node.ctx, ast.Load)
    }


def _self_calls(function: ast.FunctionDef) -> set[str]:
    """The methods a method calls on its object with no argument (`self.row_bytes()`), as
    `row_bytes()`: read through as its properties are."""
    return {
        f"{node.func.attr}()"
        for node in walk.nodes(function)
        if isinstance(node, ast.Call)
        and _self_field(node.func)
        and not node.args
        and not node.keywords
    }


def _self_field(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _through_properties(name: str, reads: dict[str, set[str]]) -> set[str]:
    """The fields (no property) property `name` reads, through the properties it reads."""
    fields: set[str] = set()
    seen, pending = {name}, [name]
    while pending:
        for attribute in reads[pending.pop()]:
            if attribute not in reads:
                fields.add(attribute)
            elif attribute not in seen:
                seen.add(attribute)
                pending.append(attribute)
    return fields
