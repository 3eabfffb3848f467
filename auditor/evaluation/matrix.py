"""Config matrix: which constructor parameters vary, over which values, and the points to try.

Only parameters that the pool's construction actually reads are varied; the set grows as new
branches are reached, up to `Limits.max_config_points`.
"""

from __future__ import annotations

import ast
import difflib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import libcst as cst

from auditor.dtypes import dtype_by_name, dtype_name, is_dtype, is_torch_dtype
from auditor.frontend.behaviour import names_a_budget, says_tokens_per_block
from auditor.frontend.index import ClassInfo, dotted
from auditor.interpret import enums
from auditor.interpret.environment import flag_dimension, switch_dimension
from auditor.interpret.values import MemberName, StandInSample
from auditor.settings import PlatformValues, Settings


@dataclass(frozen=True)
class Dimension:
    name: str
    values: tuple[Any, ...]
    # sample values of a parameter nothing gives a value (no default, none configured): a
    # figure stands only if it is the same at every sample (evaluate.py)
    free: bool = False


# Samples for a free parameter, by what it holds. Powers of two pass the divisibility checks
# pools make (`assert head_dim % 16 == 0`); two of them tell whether a figure depends on it.
INT_SAMPLES = (16, 64)
FLOAT_SAMPLES = (2.0, 4.0)
BUDGET_SAMPLES = (1 << 34, 1 << 35)  # a byte budget (`budget_bytes`): room for many rows
# a string compared with literals, where nothing gives its value: one that is none of them
OTHER_TEXT = "(other)"
# an attribute of a config nothing types (a dict's key, an untyped object's): head dims and
# group sizes of 128 are common (`d + d // 128 * 4`), so one sample reaches them
OBJECT_SAMPLES = (128, 64)
# attributes of a stand-in a composed run reads with no value, one each, each its own: equal
# values would hide a pool reading one for another (`q_lora_rank` for `kv_lora_rank`);
# multiples of 16, the first the common 128
DISTINCT_SAMPLES = (128, 64, 96, 160, 192, 224, 80, 112, 144, 176, 208, 240)
# tokens per page or block (`args.page_size`): a power of two, as every engine's, which the
# token counts of the builds are multiples of (a page of 224 tokens rounds them unevenly)
BLOCK_SAMPLE = 16
# a parameter that divides another (`heads // shards`, a shard count): samples larger than
# what it divides would leave nothing (8 heads // 16 = 0), and zero bytes compare as agreeing;
# small ones keep both sides' figures. (An object's attribute keeps OBJECT_SAMPLES: there a
# divisor is as often an alignment, `-(-d // cfg.align) * cfg.align`, that 1 or 2 never shows.)
DIVISOR_SAMPLES = (1, 2)
# a model's width (`hidden_size`), which code divides by a head count for the head size: a
# real width, whose quotient by any of DISTINCT_SAMPLES is none of them (a head size read as
# `hidden_size // num_attention_heads` by one side and as `head_dim` by the other shows)
WIDTH_SAMPLE = 3072
_WIDTH = frozenset(
    "hidden_size hidden_dim d_model n_embd embed_dim embedding_dim model_dim dim_model".split()
)
# head counts, which code divides a width by (`hidden_size // num_attention_heads`): divisors
# of WIDTH_SAMPLE whose quotients are none of DISTINCT_SAMPLES (a width floored by a count
# it is not a multiple of gives sizes no model has: `heads * (width // heads) != width`)
# (a KV head count one that divides the attention head count: `heads // kv_heads` groups)
HEAD_SAMPLE, KV_HEAD_SAMPLE = 12, 4
_HEADS = re.compile(r"(^|_)(n|num)_(\w+_)?heads?$|^(kv_)?head_num$|^n_head$")
_KV = re.compile(r"(^|_)(kv|key_value)(_|$)")


# names of parallel degrees (`tp_size`, `world_size`, `num_shards`): divisors of head counts
_PARALLEL = re.compile(r"(^|_)(tp|pp|dp|ep|cp|world|shards?|parallel)(_|$)")


def stand_in_sample(name: str, order: int) -> int | None:
    """The number a composed run gives the `order`-th attribute of a stand-in it reads with no
    value (evaluate.py): each its own (DISTINCT_SAMPLES); a parallel degree a divisor's
    (a head count over 224 would be 0); a byte budget room for many rows; a model's width a
    real one (WIDTH_SAMPLE), a head count one of its divisors (HEAD_SAMPLE); None for a name
    saying a torch dtype (`torch_dtype`, `dtype`: the pack's first dtype). Not `cache_dtype`:
    often text (`"auto"`, `"int8"`), which a sample compared with it demands."""
    last = name.rpartition(".")[2]
    if last in ("dtype", "torch_dtype"):
        return None
    if _PARALLEL.search(last):
        return DIVISOR_SAMPLES[1]
    if names_a_budget(name):
        return BUDGET_SAMPLES[0]
    if last in _WIDTH:
        return WIDTH_SAMPLE
    if says_tokens_per_block(last):
        return BLOCK_SAMPLE
    if _HEADS.search(last):
        return KV_HEAD_SAMPLE if _KV.search(last) else HEAD_SAMPLE
    return DISTINCT_SAMPLES[order % len(DISTINCT_SAMPLES)]


def _other_kind(param: cst.Param, values: list) -> bool:
    """Is the parameter's default of another kind than every value listed for its name: an
    attribute (`KVLayout.NHD`) where the list holds literals, or a literal of another type?"""
    if param.default is None or not values:
        return False
    if isinstance(param.default, cst.Attribute):
        return all(isinstance(v, (str, int, float, bool)) for v in values)
    if isinstance(param.default, (cst.Integer, cst.Float, cst.SimpleString)):
        try:
            default = ast.literal_eval(cst.Module([]).code_for_node(param.default))
        except (ValueError, SyntaxError):
            return False
        return all(type(v) is not type(default) for v in values)
    return False


def constructor_parameters(cls: ClassInfo) -> list[cst.Param]:
    init = cls.find_method("__init__")
    if init is None:
        return []
    params = init.node.params
    ordered = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    return ordered[1:] if ordered and ordered[0].name.value in ("self", "cls") else ordered


def parameter_names(cls: ClassInfo) -> list[str]:
    return [p.name.value for p in constructor_parameters(cls)]


def _is_dtype_parameter(param: cst.Param, code: Callable[[cst.CSTNode], str]) -> bool:
    if param.annotation is not None:
        text = code(param.annotation.annotation).replace(" ", "")
        if text.endswith("torch.dtype") or text.endswith("torch.dtype]"):
            return True
    if param.default is not None:
        text = code(param.default).strip()
        return text.startswith("torch.") and dtype_by_name(text) is not None
    return False


def object_paths(name: str, matrix: dict) -> list[str]:
    """The matrix's attribute paths of an object parameter (`cache_params.shape.temporal`): the
    parameter is built as an object holding those values, and nothing else."""
    prefix = name + "."
    return [key for key in matrix if key.startswith(prefix)]


def runtime_dimension(getter: str, attribute: str) -> str:
    """The config dimension of a runtime value: `get_parallel().attn_dcp_size`."""
    return f"{getter}().{attribute}"


def dimensions(
    classes: list[ClassInfo], settings: Settings, roles: Any = None
) -> dict[str, Dimension]:
    """Every parameter of the constructors that the rule packs give values for, and every
    probe and switch (varied, like the rest, only once the code reads them). With `roles`
    (roles.RoleBook), also what the code says of the others (by_use)."""
    found = probe_dimensions(settings)
    fixed = (
        set(settings.token_params)
        | set(settings.layer_names())
        | set(settings.device_pool_params)
        | set(settings.buffer_info_params)
        | set(settings.anchor_params)  # a host pool: the code's, or a stand-in (anchors.py)
    )
    for cls in classes:
        code = cls.module.parsed.code
        own_fixed = roles.fixed(cls) if roles is not None else set()
        for param in constructor_parameters(cls):
            name = param.name.value
            if name in fixed or name in found or name in own_fixed:
                continue
            unnamed = roles is not None and not roles.named(cls)
            members = enum_members(param, cls, roles.index) if unnamed else None
            if members is not None:
                # `dtype: CacheDType` (an enum of the tree, no default): its members, not the
                # pack's torch dtypes for SGLang's `dtype`, nor torch dtypes by its use
                found[name] = members
            elif name in settings.matrix and unnamed and _other_kind(param, settings.matrix[name]):
                # the pack's `layout` strings for a class defaulting to its own enum member
                # (`layout=KVLayout.NHD`): values of another parameter, not of this one
                dimension = by_use(name, roles.facts(cls), settings, cls)
                if dimension is None:
                    dimension = enum_members(param, cls, roles.index)
                if dimension is not None:
                    found[name] = dimension
            elif name in settings.matrix:
                values = tuple(settings.matrix[name])
                if roles is not None and not roles.named(cls):  # the pack's values are for
                    flag = by_use(name, roles.facts(cls), settings, cls)  # its engine's classes
                    if flag is not None and not flag.free:
                        values += tuple(v for v in flag.values if v not in values)
                found[name] = Dimension(name, values)
            elif object_paths(name, settings.matrix):  # an object of listed attributes
                for path in object_paths(name, settings.matrix):
                    found.setdefault(path, Dimension(path, tuple(settings.matrix[path])))
            elif settings.default_dtypes and _is_dtype_parameter(param, code):
                found[name] = Dimension(name, tuple(settings.default_dtypes))
            elif roles is not None:
                dimension = by_use(name, roles.facts(cls), settings, cls)
                if dimension is None:
                    dimension = enum_members(param, cls, roles.index)
                if dimension is not None:
                    found[name] = dimension
        inferred = roles.inferred(cls) if roles is not None else None
        if inferred is not None and inferred.start is not None:
            # a stage's layers `range(start, end)`: built from layer 0, `end` being the count
            if inferred.start not in settings.matrix:
                found[inferred.start] = Dimension(inferred.start, (0,))
        facts = roles.facts(cls) if roles is not None else None
        if facts is not None and facts.objects:  # `cfg.head_dim`: an object's attributes
            # and the fields the properties it reads compute from (`geom.kv_heads` ->
            # `geom.num_kv_heads`, `geom.tp`)
            read = [f for p in facts.params for f in sorted(facts.property_fields.get(p, ()))]
            for name in dict.fromkeys([*facts.params, *read]):
                if name.partition(".")[0] in facts.objects.values() and name not in found:
                    if name in fixed or name in own_fixed or name in facts.called:
                        continue  # (a method it calls, `cp.getint`: never a value of its own)
                    if name in facts.object_properties:
                        continue  # (computed by its class from the fields: `spec.page_bytes`)
                    if name in facts.layer_divisors:  # one stage holding every layer
                        found[name] = Dimension(name, (1,))
                        continue
                    if _RANK.search(name.rpartition(".")[2]):  # `DeployConfig.pp_rank`: which
                        found[name] = Dimension(name, (0,))  # stage, the first (sizes no buffer)
                        continue
                    members = _field_members(name, facts, roles.index)
                    if members is not None:  # `quant: QuantMode = QuantMode.INT4`: each
                        found[name] = members  # member of that enum, the default first
                        continue
                    dimension = by_use(name, facts, settings, cls)
                    if name not in facts.params:  # a field only a property reads
                        dimension = None  # a default its class gives: the stand-in's
                        if (facts.object_defaults.get(name) or "").strip() == "None":
                            # as set (`v_dim: Optional[int] = None`): the property decides
                            dimension = Dimension(name, (None,))
                        elif name in facts.field_table_keys and name not in facts.object_defaults:
                            # a dtype table's key it is looked up with (`_DTYPES[self.dtype]`)
                            dimension = Dimension(name, facts.field_table_keys[name])
                        elif (
                            name in facts.dtype_names_params
                            and name not in facts.object_defaults
                            and settings.default_dtypes
                        ):  # a dtype's name (`getattr(torch, self.dtype)`): the texts it is
                            # compared with (`"auto"`), then the pack's dtypes' names
                            names = [dtype_name(d) for d in settings.default_dtypes]
                            texts = facts.dtype_name_texts.get(name, [])
                            dimension = Dimension(name, tuple(dict.fromkeys([*texts, *names])))
                    holds = any(n.startswith(name + ".") for n in facts.params)  # an object
                    unsaid = name not in facts.object_defaults and not holds
                    if name in facts.unpacked and unsaid:  # a tuple of numbers, each sampled
                        size = facts.unpacked[name]
                        samples = tuple((value,) * size for value in OBJECT_SAMPLES)
                        found[name] = Dimension(name, samples)
                        continue
                    if dimension is None and unsaid:
                        # read, and nothing says what it holds (a dict's key, an untyped
                        # object's attribute): a number, sampled, which a text it is compared
                        # with demands (`cfg["kv_cache_dtype"] == "auto"`: StandInSample)
                        dimension = Dimension(name, tuple(map(StandInSample, OBJECT_SAMPLES)))
                    elif dimension is not None and unsaid and dimension.values == INT_SAMPLES:
                        dimension = replace(
                            dimension, values=tuple(map(StandInSample, OBJECT_SAMPLES))
                        )
                    if dimension is not None:  # a model dimension, as the pack's head_dim:
                        found[name] = replace(dimension, free=False)  # varied, not settled
    if roles is not None and len(classes) > 1:
        _keys_of_each(found, classes, roles)
    return found


def _keys_of_each(found: dict[str, Dimension], classes: list[ClassInfo], roles: Any) -> None:
    """A text parameter the pools of a pair each look up in a table of their own: the keys
    of each side's table. Each table gives one key per value it holds (dtype_table_keys), and
    only the first class's dimension was kept: a host table sending two names the device's
    keeps apart to one width tried only one of them, which may be the one that agrees."""
    for name, dimension in list(found.items()):
        if dimension.free or not all(type(v) is str for v in dimension.values):
            continue
        keys = [
            key
            for cls in classes
            if (facts := roles.facts(cls)) is not None and name in facts.params
            for key in facts.table_keys.get(name, ())
            if type(key) is str
        ]
        if keys and not set(keys) <= set(dimension.values):
            found[name] = replace(
                dimension, values=tuple(dict.fromkeys([*dimension.values, *keys]))
            )


def probe_dimensions(values: Settings | PlatformValues) -> dict[str, Dimension]:
    """The dimensions of probes (`is_hip()`), runtime values (`get_parallel().attn_dcp_size`)
    and switches (`$SGLANG_X`) that the pack, or a platform, lists."""
    found: dict[str, Dimension] = {}
    for probe, flag_values in values.flags.items():
        found[flag_dimension(probe)] = Dimension(flag_dimension(probe), tuple(flag_values))
    for getter, attributes in values.runtime.items():
        for attribute, runtime_values in attributes.items():
            name = runtime_dimension(getter, attribute)
            found[name] = Dimension(name, tuple(runtime_values))
    for variable, texts in values.switches.items():
        found[switch_dimension(variable)] = Dimension(switch_dimension(variable), tuple(texts))
    return found


def platform_of(cls: ClassInfo, settings: Settings) -> tuple[str, dict[str, Dimension]] | None:
    """The platform `cls` runs on (the first `[platforms.<name>]` whose modules hold its
    module) and its dimensions: the parameter values, probes, switches and runtime values that
    replace the pack's for the pairs of that device pool, refined by those of its `classes`
    tables that name a class of its MRO; None for a class of no listed platform."""
    for name, platform in settings.platforms.items():
        if platform.runs(cls.module.name):
            bases = {klass.name for klass in cls.mro()}
            found: dict[str, Dimension] = {}
            for values in [platform, *(v for n, v in platform.classes.items() if n in bases)]:
                found.update((n, Dimension(n, tuple(v))) for n, v in values.matrix.items())
                found.update(probe_dimensions(values))
            return name, found
    return None


def host_values_of(cls: ClassInfo, settings: Settings) -> dict[str, Dimension]:
    """The dimensions `[hosts.<Class>]` tables give the pairs of host `cls` (a table naming a
    class of its MRO), replacing the pack's and the platform's: the values a factory needs to
    pick this host (SGLang 0.5.23 builds its asymmetric MHA host only when K and V head
    dimensions differ)."""
    found: dict[str, Dimension] = {}
    for klass in reversed(cls.mro()):
        values = settings.hosts.get(klass.name)
        if values is not None and values.applies(cls.module.name):
            found.update((n, Dimension(n, tuple(v))) for n, v in values.matrix.items())
            found.update(probe_dimensions(values))
    return found


def apart_from_pack(cls: ClassInfo, settings: Settings) -> int:
    """How many of the dimensions `[hosts.<Class>]` gives host `cls` take values the pack's
    matrix does not (the asymmetric host's head dim 192): 0 for a table that only narrows the
    pack's (the MHA host's `v_head_dim = [128]` of the pack's 128 and 192)."""
    return sum(
        1
        for name, dimension in host_values_of(cls, settings).items()
        if not set(dimension.values) <= set(settings.matrix.get(name, ()))
    )


def by_use(
    name: str, facts: Any, settings: Settings, cls: ClassInfo | None = None
) -> Dimension | None:
    """A dimension for a parameter the pack says nothing of, from how the code uses it
    (behaviour.Facts): passed as `dtype=` or compared with torch dtypes (the pack's dtypes); a
    flag tested where a branch allocates (its default and every literal, or member of the
    default's enum, it is compared with); a number with no default (free: sampled)."""
    if facts is None or name not in facts.params:
        return None
    param = facts.params[name]
    if cls is not None and name in facts.members and param.default is not None:
        members = _enum_flag(name, param.default, facts.members[name], cls)
        if members is not None:
            return members
    field_default = _field_default(name, facts)  # an object's field: its class's default
    if name in facts.dtype_names_params and param.default is None and settings.default_dtypes:
        # `getattr(torch, cfg["scale_dtype"])`: the names of the pack's dtypes
        names = [dtype_name(d) for d in settings.default_dtypes]
        if isinstance(field_default, str) and field_default in names:
            names.remove(field_default)
        first = [field_default] if isinstance(field_default, str) else []
        # and the literals it is tested against first (`if name.startswith("fp8")`, "auto")
        tested = [v for v in facts.flags.get(name, ()) if isinstance(v, str) and v not in first]
        return Dimension(name, tuple(dict.fromkeys(first + tested + names)))
    if name in facts.dtype_params and param.default in (None, "None"):
        if is_dtype(field_default):
            return _dtypes_from(name, field_default, settings)
        return Dimension(name, tuple(settings.default_dtypes)) if settings.default_dtypes else None
    tested = name in facts.flags or name in facts.table_keys
    # a string parameter nothing gives that indexes a table (`GGML_TYPE_TRAITS[type_k]`)
    keyed = "." not in name and name in facts.table_keys
    if tested and param.default is None and ("." in name or keyed):
        # an object's attribute tested where a branch allocates: each literal it is compared
        # with, and both truths when it is tested for one; or indexing a dtype table: its keys
        values = []
        default = _literal_or_none(facts.object_defaults.get(name))
        if default is not None:  # the default its class gives the field, first
            values.append(default)
        for value in [*facts.flags.get(name, ()), *facts.table_keys.get(name, ())]:
            for each in (False, True) if value is True else (value,):
                if each not in values:
                    values.append(each)
        if (  # nothing says its value: the literals it is compared with, and any other
            default is None
            and values
            and all(isinstance(v, str) for v in values)
            and name not in facts.table_keys
            and name not in facts.closed
        ):
            values.append(OTHER_TEXT)
        return Dimension(name, tuple(values)) if values else None
    if name in facts.flags and param.default is not None:
        try:
            default = ast.literal_eval(param.default)
        except (ValueError, SyntaxError):
            return None
        values = [default]
        for value in [*facts.flags[name], *facts.table_keys.get(name, ())]:
            if value is True and isinstance(default, bool):
                value = not default
            if value not in values and type(value) is type(default):
                values.append(value)
        return Dimension(name, tuple(values)) if len(values) > 1 else None
    if param.default is not None:
        return None
    by_default = by_field_default(name, facts, settings)
    if by_default is not None:
        return by_default
    annotation = (param.annotation or "").replace(" ", "")
    if annotation in ("float", "Optional[float]", "float|None"):
        return Dimension(name, FLOAT_SAMPLES, free=True)
    if (
        annotation in ("int", "Optional[int]", "int|None")
        or _int_or_ints(annotation)
        or (not annotation and name in facts.numeric)
    ):
        samples = BUDGET_SAMPLES if names_a_budget(name) else INT_SAMPLES
        if name in facts.divisors and samples is INT_SAMPLES and "." not in name:
            samples = DIVISOR_SAMPLES
        return Dimension(name, samples, free=True)
    return None


_INTS = re.compile(r"(?:typing\.)?(?:Sequence|List|Tuple|list|tuple)\[int(?:,\.\.\.)?\]")


def _int_or_ints(annotation: str) -> bool:
    """`Union[int, Sequence[int]]`, `int | list[int]`: one number or one per item, which
    the code spreads itself (`[heads] * num_layers` when given one): sampled as a number."""
    if annotation.startswith("Union[") and annotation.endswith("]"):
        members = annotation[len("Union[") : -1].split(",", 1)
    else:
        members = annotation.split("|", 1)
    return (
        len(members) == 2
        and members[0] == "int"
        and _INTS.fullmatch(members[1].removeprefix("typing.")) is not None
    )


def by_field_default(name: str, facts: Any, settings: Settings) -> Dimension | None:
    """A dimension for an object's field from the default its class gives it: a dtype (the
    pack's dtypes, the default first), a bool or a string (as set), a positive int (it and one
    sample); else None (`None` too: a `__post_init__` may set what it stands for)."""
    field_default = _field_default(name, facts)
    if is_dtype(field_default):  # `dtype: torch.dtype = torch.bfloat16`, however it flows
        return _dtypes_from(name, field_default, settings)
    if isinstance(field_default, (bool, str)):  # not tested where a branch allocates: as set
        return Dimension(name, (field_default,))
    if isinstance(field_default, int) and field_default > 0:  # the default, and one sample
        other = INT_SAMPLES[0] if field_default != INT_SAMPLES[0] else INT_SAMPLES[1]
        return Dimension(name, (field_default, other))
    return None


def _field_default(name: str, facts: Any) -> Any:
    """The default the class of an object gives the field `name` (`DisaggConfig.dtype`) when
    it is a plain literal or a torch dtype (`torch.bfloat16`), else None."""
    if "." not in name:
        return None
    text = facts.object_defaults.get(name)
    if text is not None and text.strip().startswith("torch."):
        return dtype_by_name(text.strip())
    return _literal_or_none(text)


def _dtypes_from(name: str, default: Any, settings: Settings) -> Dimension:
    """The pack's dtypes with a field's default first (the point every other starts from)."""
    return Dimension(name, (default, *(d for d in settings.default_dtypes if d != default)))


def _literal_or_none(text: str | None) -> Any:
    """A field default's value when it is a plain literal (bool, int, str), else None."""
    try:
        value = ast.literal_eval(text) if text is not None else None
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, (bool, int, str)) else None


def enum_members(param: cst.Param, cls: ClassInfo, index: Any) -> Dimension | None:
    """`type_k: GGMLType` with no default, where nothing gives a value: each member of that
    enum of the audited tree (the values a caller can pass), named as `cls`'s module names it,
    so a figure that depends on it is compared at each member, not left unresolved."""
    if param.default is not None or param.annotation is None:
        return None
    annotation = param.annotation.annotation
    if isinstance(annotation, cst.SimpleString):  # `"GGMLType"`
        text = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else ""
    else:
        text = dotted(annotation) or ""
    if not text.isidentifier():  # (a member is read back as `Kind.NAME` in the module)
        return None
    kind = index.resolve_static(cls.module, text)
    if not isinstance(kind, ClassInfo) or not enums.is_enum(kind):
        return None
    names = enums.member_names(kind)
    if not names:
        return None
    return Dimension(
        param.name.value, tuple(MemberName(cls.module.name, f"{text}.{n}") for n in names)
    )


# a process's index in a parallel group (`pp_rank`, `tp_rank`), never a size (a bare
# `rank`, `kv_lora_rank`, is a width)
_RANK = re.compile(r"^(?:pp|tp|dp|ep|cp|attn_tp|local|global|world|node)_rank$")


def _field_members(name: str, facts: Any, index: Any) -> Dimension | None:
    """An object's field whose class gives it an enum member as default (`quant: QuantMode =
    QuantMode.INT4`, an enum of the audited tree): each member, named as that class's module
    names it, the default first; None for any other field."""
    path = name.rpartition(".")[0]
    klass = facts.object_classes.get(path)
    default = (facts.object_defaults.get(name) or "").strip()
    match = re.fullmatch(r"(\w+)\.(\w+)", default)
    if not isinstance(klass, ClassInfo) or match is None:
        return None
    kind = index.resolve_static(klass.module, match.group(1))
    if not isinstance(kind, ClassInfo) or not enums.is_enum(kind):
        return None
    names = enums.member_names(kind)
    if match.group(2) not in names:
        return None
    ordered = [match.group(2)] + [n for n in names if n != match.group(2)]
    text = match.group(1)
    return Dimension(name, tuple(MemberName(klass.module.name, f"{text}.{n}") for n in ordered))


def _enum_flag(name: str, default: str, compared: list[str], cls: ClassInfo) -> Dimension | None:
    """`mode: Mode = Mode.A` compared with `Mode.B` where a branch allocates: the default and
    each member of the same enum it is compared with (resolved in the class's module when
    read; a name that is no enum member there makes its points unresolved, never a finding)."""
    kind, dot, _ = default.partition(".")
    if not dot or not kind.isidentifier():
        return None
    texts = [default] + [t for t in dict.fromkeys(compared) if t.startswith(f"{kind}.")]
    texts = list(dict.fromkeys(texts))
    if len(texts) < 2:
        return None
    return Dimension(name, tuple(MemberName(cls.module.name, text) for text in texts))


def describe_value(value: Any) -> str:
    return dtype_name(value) if is_dtype(value) or is_torch_dtype(value) else str(value)


def json_value(value: Any) -> Any:
    if type(value) is MemberName:
        return value.text
    return dtype_name(value) if is_dtype(value) or is_torch_dtype(value) else value


def explore(
    dims: dict[str, Dimension],
    evaluate: Callable[[dict[str, Any]], set[str]],
    max_points: int,
) -> tuple[list[dict[str, Any]], list[str], bool]:
    """Evaluate points, varying only the dimensions that evaluation reported reading.

    `evaluate(values)` runs one point and returns the names it read. Returns the points
    evaluated, the dimensions varied in the end, and whether `max_points` cut the search short.
    """
    base = {name: dim.values[0] for name, dim in dims.items()}
    varied: list[str] = []
    evaluated: dict[tuple, dict[str, Any]] = {}
    while True:
        grew = False
        for combo in itertools.product(*(dims[name].values for name in varied)):
            key = tuple(combo)
            if key in evaluated:
                continue
            if len(evaluated) >= max_points:
                return list(evaluated.values()), varied, True
            values = dict(base)
            values.update(zip(varied, combo))
            evaluated[key] = values
            reads = evaluate(values)
            new = sorted(
                n for n in dims if n in reads and n not in varied and len(dims[n].values) > 1
            )
            if new:
                varied.extend(new)
                evaluated = {tuple(v[n] for n in varied): v for v in evaluated.values()}
                grew = True
                break
        if not grew:
            return list(evaluated.values()), varied, False


def setting_dimension(kind: str, name: str) -> str:
    """The dimension a config table's key makes: matrix `page_size`, flags `is_hip()`..."""
    if kind == "flags":
        return flag_dimension(name)
    if kind == "switches":
        return switch_dimension(name)
    if kind == "runtime":
        getter, attribute = name.split(".", 1)
        return runtime_dimension(getter, attribute)
    return name


def unread_settings(settings: Settings, read: set[str], known: set[str]) -> list[str]:
    """A warning for each value the project's own table sets that no audited code read, with
    the nearest dimension that exists (`read` and `known`: what the audit read and offered).
    A rule pack's keys are not warned about: packs cover many versions of an engine."""
    warnings = []
    for (kind, name), where in settings.project_dimensions.items():
        dimension = setting_dimension(kind, name)
        if dimension in read:
            continue
        near = difflib.get_close_matches(dimension, sorted((read | known) - {dimension}), n=1)
        spelt = near[0].removeprefix("$").removesuffix("()") if near else ""
        hint = f" (did you mean {spelt}?)" if near else ""
        warnings.append(f"{where}: no audited code reads it{hint}")
    return warnings
