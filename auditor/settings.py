"""Settings: rule packs (TOML in `rules/`) merged with the project's `[tool.layout-audit]`.

Every key is validated; a bad key or value is a ConfigError naming the file, the key and what
was expected, which the CLI prints as one line and exits 2.
"""

from __future__ import annotations

import ast
import difflib
import functools
import importlib.util
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor import engines
from auditor.engines import default_packs
from auditor.engines.base import RULES_DIR, ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


OUTPUT_FORMATS = ("text", "json", "github", "sarif", "html")
TABLE = "layout-audit"  # [tool.layout-audit]
# Spellings of the table that are not read, each a warning naming the right one.
MISSPELT_TABLES = ("layout_audit", "layoutaudit", "layout-auditor", "layout_auditor")

# The schema: every key a rule pack may hold, and every key [tool.layout-audit] adds to those.
# The unknown-key errors list these, so they cannot leave one out.
PACK_KEYS = (
    "pack",
    "parameters",
    "dtypes",
    "matrix",
    "buffer-map",
    "anchor-host",
    "hosts",
    "flags",
    "switches",
    "runtime",
    "platforms",
)
PLATFORM_VALUE_KEYS = ("matrix", "flags", "switches", "runtime")
PLATFORM_KEYS = ("modules", *PLATFORM_VALUE_KEYS, "classes")
HOST_KEYS = ("modules", *PLATFORM_VALUE_KEYS)
PROJECT_KEYS = (
    "rule-packs",
    "select",
    "ignore",
    "include",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "pairs",
    "output-format",
    "baseline",
    "fail-on-uncompared",
    "fail-on-unresolved",
    *PACK_KEYS,
)


@dataclass
class PlatformValues:
    """Config values of a platform: parameter values, probes, switches and runtime values."""

    matrix: dict[str, list[Any]] = field(default_factory=dict)
    flags: dict[str, list[bool]] = field(default_factory=dict)
    switches: dict[str, list[str | None]] = field(default_factory=dict)
    runtime: dict[str, dict[str, list[Any]]] = field(default_factory=dict)


@dataclass
class HostValues(PlatformValues):
    """`[hosts.<Class>]`: values the pairs of a host class are evaluated at. `modules` (dotted,
    matched as whole parts; none: any module) keeps them to the engine's own code: a pack's
    fact that a factory builds SGLang's MHA host only at equal head dims says nothing of a
    class of that name elsewhere."""

    modules: list[str] = field(default_factory=list)

    def applies(self, module: str) -> bool:
        return not self.modules or any(f".{m}." in f".{module}." for m in self.modules)


@dataclass
class Platform(PlatformValues):
    """A platform only some device pools run on, known by the modules that define them (an
    Ascend pool under `hardware_backend.npu`): their pairs are evaluated at the platform's own
    values, which replace the pack's (a CUDA machine's). `classes` refines them for the device
    pools that are (subclasses of) a class: the server sets another HiCache layout for MLA."""

    modules: list[str] = field(default_factory=list)  # dotted, matched as whole parts
    classes: dict[str, PlatformValues] = field(default_factory=dict)  # base class name: values

    def runs(self, module: str) -> bool:
        """Whether a class defined in dotted module `module` runs on this platform."""
        return any(f".{m}." in f".{module}." for m in self.modules)


@dataclass
class Settings:
    """Everything an audit needs to know besides the files."""

    packs: list[str] = field(default_factory=list)
    token_params: list[str] = field(default_factory=list)
    layer_params: list[str] = field(default_factory=list)
    device_pool_params: list[str] = field(default_factory=list)
    # a host taking one of these is built from a record the device pool makes (`*BufferInfo`)
    buffer_info_params: list[str] = field(default_factory=list)
    # a device pool taking one of these holds some buffers per slot, `size * ratio` of them
    # (HiSparse's index-K): such a buffer is measured per slot (evaluation/slots.py)
    slot_ratio_params: list[str] = field(default_factory=list)
    # a pool taking one of these gets the ids of the layers it holds (a list), not a count:
    # built with `list(range(layers))` (0.5.23's QSA pool, `full_attention_layer_ids`)
    layer_id_params: list[str] = field(default_factory=list)
    default_dtypes: list[Any] = field(default_factory=list)
    matrix: dict[str, list[Any]] = field(default_factory=dict)
    buffer_map: dict[str, list[str]] = field(default_factory=dict)
    # host parameters receiving the tier's other host whose capacity the host copies
    # (`anchor_host`), and the attributes of the stand-in built for it where the code's value
    # is not known: {name: expression of config values and `tokens`} (evaluation/anchors.py)
    anchor_params: list[str] = field(default_factory=list)
    anchor_attributes: dict[str, str] = field(default_factory=dict)
    # `[hosts.<Class>]`: values the pairs of that host class (or a subclass) are evaluated
    # at, replacing the pack's: a factory picks it only for some models (asymmetric heads)
    hosts: dict[str, HostValues] = field(default_factory=dict)
    # platform probes (`is_hip()`) and environment switches (`ENGINE_X`): values to explore
    flags: dict[str, list[bool]] = field(default_factory=dict)
    switches: dict[str, list[str | None]] = field(default_factory=dict)
    runtime: dict[str, dict[str, list[Any]]] = field(default_factory=dict)  # getter: attr: values
    platforms: dict[str, Platform] = field(default_factory=dict)  # [platforms.<name>]
    token_counts: tuple[int, int] = (8192, 16384)
    layer_counts: tuple[int, int] = (2, 3)
    select: list[str] | None = None  # None: every check (checks.selected)
    ignore: list[str] = field(default_factory=list)
    codes_from: str = "<defaults>"  # where select / ignore were written, for errors
    include: list[str] = field(default_factory=lambda: ["*.py"])
    exclude: list[str] | None = None  # None: the default skipped folders (discover.SKIPPED_DIRS)
    extend_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    pairs: dict[str, list[str]] = field(default_factory=dict)  # host class = [device classes]
    output_format: str = "text"
    # exit 1 when a pair was never compared / anything is unresolved (coverage.py)
    fail_on_uncompared: bool = False
    fail_on_unresolved: bool = False
    config_file: str | None = None
    baseline: str | None = None  # a baseline file (baseline.py), relative to the config's folder
    # config dimensions the project's own table sets: {dimension: "file: matrix.key"}, so a key
    # no audited code reads can be named in a warning (a rule pack's keys are not: packs cover
    # many versions of an engine)
    project_dimensions: dict[tuple[str, str], str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # printed as one line each
    # an engine's own table of the packs (Engine.table), merged, unchecked: its stage reads it
    engine_tables: dict[str, dict[str, Any]] = field(default_factory=dict)

    def layer_names(self) -> list[str]:
        """The parameters that count layers: a count (`layers`) or a list of layer ids."""
        return [
            *self.layer_params,
            *(n for n in self.layer_id_params if n not in self.layer_params),
        ]

    def object_roots(self) -> frozenset[str]:
        """Parameters the matrix lists attribute paths of (`cache_params.shape.temporal`): read
        off its keys, so that no dtype of it is resolved (that starts torch's child)."""
        return frozenset(k.partition(".")[0] for k in self.__dict__["matrix"] if "." in k)

    def layer_value(self, name: str, layers: int) -> Any:
        """What a layer parameter is given at a build of `layers` layers."""
        return list(range(layers)) if name in self.layer_id_params else layers


@dataclass(frozen=True)
class DtypeName:
    """A dtype named in a rule pack, checked when loaded and turned into the real torch dtype
    only when a pool needs it: an audit without pools never imports torch."""

    name: str
    where: str  # "file: key", for the error if torch disagrees

    def resolve(self) -> Any:
        from auditor.dtypes import dtype_by_name, torch_version

        dtype = dtype_by_name(self.name)
        if dtype is None:
            raise ConfigError(
                f"{self.where}: unknown torch dtype {self.name!r} "
                f"(the installed torch is {torch_version()})"
            )
        return dtype


def _lazy_dtypes(attribute: str) -> property:
    """`Settings.<attribute>` with every DtypeName in it replaced by its torch dtype on read."""
    from auditor.dtypes import from_torch, is_torch_dtype

    def get(self: Settings) -> Any:
        value = self.__dict__[attribute]
        lists = value.values() if isinstance(value, dict) else [value]
        for values in lists:
            for i, item in enumerate(values):
                if isinstance(item, DtypeName):
                    values[i] = item.resolve()
                elif is_torch_dtype(item):  # a real torch dtype set in code: the same value
                    values[i] = from_torch(item)
        return value

    def set_(self: Settings, value: Any) -> None:
        self.__dict__[attribute] = value

    return property(get, set_)


Settings.default_dtypes = _lazy_dtypes("default_dtypes")  # type: ignore[assignment]
Settings.matrix = _lazy_dtypes("matrix")  # type: ignore[assignment]


@functools.cache
def _stub_dtype_names() -> frozenset[str]:
    """The dtype names torch's own type stub declares (`float32: dtype = ...`), read without
    importing torch; empty if torch or its stub cannot be found."""
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return frozenset()
    for folder in (spec.submodule_search_locations or []) if spec else []:
        stub = Path(folder) / "_C" / "__init__.pyi"
        try:
            text = stub.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        return frozenset(re.findall(r"^(\w+): dtype = \.\.\.$", text, re.MULTILINE))
    return frozenset()


def _dtype_name(name: str, where: str) -> DtypeName:
    """A dtype name checked against torch: against its stub when the name is there (no import),
    else against torch itself (imported for that), so the answer is torch's either way."""
    dtype = DtypeName(name, where)
    if name.removeprefix("torch.") not in _stub_dtype_names():
        dtype.resolve()  # raises ConfigError naming the file and the key
    return dtype


def _read_toml(path: Path) -> dict:
    try:
        # opened without blocking and checked before reading: a FIFO or a device named as the
        # config would otherwise hang the run (or read forever)
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ConfigError(f"{path}: cannot read: not a regular file")
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text: {error.reason} at byte {error.start}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None


def _expect(value: Any, kind: type | tuple, where: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{where}: expected {what}, got {type(value).__name__} {value!r}")
    return value


def _string_list(value: Any, where: str) -> list[str]:
    _expect(value, list, where, "a list of strings")
    for item in value:
        _expect(item, str, where, "a list of strings")
    return list(value)


def _config_value(value: Any, where: str) -> Any:
    """Matrix values: numbers, booleans, strings; "torch.<dtype>" names a real torch dtype; an
    array is a tuple of such values (a shape: `[32, 128, 128]`, or shapes)."""
    if isinstance(value, str) and value.startswith("torch."):
        return _dtype_name(value, where)
    if isinstance(value, (int, float, str, bool)):
        return value
    if isinstance(value, list):
        return tuple(_config_value(v, where) for v in value)
    raise ConfigError(f"{where}: expected numbers, booleans, strings or arrays, got {value!r}")


def _dtype_value(name: str, where: str) -> Any:
    """A default dtype: `"torch.bfloat16"` or `"bfloat16"`; anything else is an error."""
    return _dtype_name(name, where)


def _matrix(table: Any, where: str) -> dict[str, list[Any]]:
    """`parameter = [values]`; a nested table gives an object parameter's attributes
    (`[matrix.cache_params.shape]` `temporal = [...]` is `cache_params.shape.temporal`)."""
    _expect(table, dict, where, "a table of parameter = [values]")
    result = {}
    for name, values in _flatten(table).items():
        key = f"{where}.{name}"
        if not isinstance(values, list):
            values = [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        result[name] = [_config_value(v, key) for v in values]
    return result


def _flags(table: Any, where: str) -> dict[str, list[bool]]:
    """`probe = [false, true]`: what a platform probe such as `is_hip()` may return."""
    _expect(table, dict, where, "a table of probe = [true/false values]")
    result = {}
    for name, values in table.items():
        key = f"{where}.{name}"
        if not name.isidentifier():
            raise ConfigError(f"{key}: a probe is a function name, such as is_hip")
        values = values if isinstance(values, list) else [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        result[name] = [_expect(v, bool, key, "true or false") for v in values]
    return result


def _switches(table: Any, where: str) -> dict[str, list[str | None]]:
    """`NAME = [false, "1"]`: the texts an environment variable may hold; false is unset."""
    _expect(table, dict, where, "a table of variable = [values]")
    result: dict[str, list[str | None]] = {}
    for name, values in table.items():
        key = f"{where}.{name}"
        values = values if isinstance(values, list) else [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        texts: list[str | None] = []
        for value in values:
            if value is False:
                texts.append(None)
            elif isinstance(value, str):
                texts.append(value)
            else:
                raise ConfigError(
                    f"{key}: expected strings (the variable's text) or false (unset), "
                    f"got {type(value).__name__} {value!r}"
                )
        result[name] = texts
    return result


def _runtime(table: Any, where: str) -> dict[str, dict[str, list[Any]]]:
    """`[runtime.get_parallel]` tables: getter -> attribute path -> values."""
    _expect(table, dict, where, "a table of getter tables")
    result: dict[str, dict[str, list[Any]]] = {}
    for getter, attributes in table.items():
        key = f"{where}.{getter}"
        if not getter.isidentifier():
            raise ConfigError(f"{key}: a getter is a function name, such as get_parallel")
        _expect(attributes, dict, key, "a table of attribute = [values]")
        values = _matrix(_flatten(attributes), key)
        for listed in values.values():  # resolved now: only the matrix resolves lazily
            listed[:] = [v.resolve() if isinstance(v, DtypeName) else v for v in listed]
        result[getter] = values
    return result


def _platform(table: Any, where: str) -> Platform:
    """`[platforms.npu]`: `modules = [...]`, the platform's matrix, flags, switches and runtime,
    and `[platforms.npu.classes.<Base>]` tables of the same values for some device pools."""
    _expect(table, dict, where, "a table (modules, matrix, flags, switches, runtime, classes)")
    for key in table:
        if key not in PLATFORM_KEYS:
            raise unknown_key(where, key, PLATFORM_KEYS)
    if "modules" not in table:
        raise ConfigError(f"{where}: expected modules = [dotted module names]")
    modules = _string_list(table["modules"], f"{where}.modules")
    if not modules:
        raise ConfigError(f"{where}.modules: expected at least one module name")
    classes = table.get("classes", {})
    _expect(classes, dict, f"{where}.classes", "a table of class name = values tables")
    refined = {}
    for name, values in classes.items():
        key = f"{where}.classes.{name}"
        if not name.isidentifier():
            raise ConfigError(f"{key}: a class name, such as MLATokenToKVPool")
        _expect(values, dict, key, "a table (matrix, flags, switches, runtime)")
        for value_key in values:
            if value_key not in PLATFORM_VALUE_KEYS:
                raise unknown_key(key, value_key, PLATFORM_VALUE_KEYS)
        refined[name] = _platform_values(values, key)
    return Platform(**vars(_platform_values(table, where)), modules=modules, classes=refined)


def _platform_values(table: dict, where: str) -> PlatformValues:
    matrix = _matrix(table.get("matrix", {}), f"{where}.matrix")
    for listed in matrix.values():  # resolved now, as runtime values are
        listed[:] = [v.resolve() if isinstance(v, DtypeName) else v for v in listed]
    return PlatformValues(
        matrix,
        _flags(table.get("flags", {}), f"{where}.flags"),
        _switches(table.get("switches", {}), f"{where}.switches"),
        _runtime(table.get("runtime", {}), f"{where}.runtime"),
    )


def _flatten(table: dict, prefix: str = "") -> dict:
    """`kernel.enable_x = [true]` (a nested table in TOML) is the path `kernel.enable_x`."""
    flat: dict = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def unknown_key(source: str, key: str, known: tuple[str, ...]) -> ConfigError:
    """The error for a key outside the schema: the nearest known key, then all of them."""
    near = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    return ConfigError(f"{source}: unknown key {key!r} ({hint}expected one of {', '.join(known)})")


def apply_pack(
    settings: Settings, data: dict, source: str, known: tuple[str, ...] = PACK_KEYS
) -> None:
    """Merge one rule pack (or the project's table of the same shape) into `settings`."""
    known = (*known, *engines.tables())
    for key in data:
        if key not in known:
            raise unknown_key(source, key, known)
    parameters = data.get("parameters", {})
    _expect(parameters, dict, f"{source}: parameters", "a table")
    for key, value in parameters.items():
        where = f"{source}: parameters.{key}"
        if key == "tokens":
            settings.token_params = _string_list(value, where)
        elif key == "layers":
            settings.layer_params = _string_list(value, where)
        elif key == "device-pool":
            settings.device_pool_params = _string_list(value, where)
        elif key == "buffer-info":
            settings.buffer_info_params = _string_list(value, where)
        elif key == "slot-ratio":
            settings.slot_ratio_params = _string_list(value, where)
        elif key == "layer-ids":
            settings.layer_id_params = _string_list(value, where)
        elif key in ("token-counts", "layer-counts"):
            counts = _string_list_of_ints(value, where)
            if key == "token-counts":
                settings.token_counts = counts
            else:
                settings.layer_counts = counts
        else:
            raise ConfigError(f"{source}: unknown key 'parameters.{key}'")
    dtypes_table = data.get("dtypes", {})
    _expect(dtypes_table, dict, f"{source}: dtypes", "a table")
    for key, value in dtypes_table.items():
        if key != "default":
            raise ConfigError(f"{source}: unknown key 'dtypes.{key}'")
        settings.default_dtypes = [
            _dtype_value(v, f"{source}: dtypes.default")
            for v in _string_list(value, f"{source}: dtypes.default")
        ]
    settings.__dict__["matrix"].update(_matrix(data.get("matrix", {}), f"{source}: matrix"))
    settings.flags.update(_flags(data.get("flags", {}), f"{source}: flags"))
    settings.switches.update(_switches(data.get("switches", {}), f"{source}: switches"))
    for getter, values in _runtime(data.get("runtime", {}), f"{source}: runtime").items():
        settings.runtime.setdefault(getter, {}).update(values)
    platforms = data.get("platforms", {})
    _expect(platforms, dict, f"{source}: platforms", "a table of platform tables")
    for name, table in platforms.items():
        settings.platforms[name] = _platform(table, f"{source}: platforms.{name}")
    for table in engines.tables():  # an engine's own table, checked by its stage
        if table in data:
            _expect(data[table], dict, f"{source}: {table}", "a table")
            merged = {**settings.engine_tables.get(table, {}), **data[table], "source": source}
            settings.engine_tables[table] = merged
    hosts = data.get("hosts", {})
    _expect(hosts, dict, f"{source}: hosts", "a table of host class name = values tables")
    for name, values in hosts.items():
        key = f"{source}: hosts.{name}"
        if not name.isidentifier():
            raise ConfigError(f"{key}: a class name, such as AsymmetricMHATokenToKVPoolHost")
        _expect(values, dict, key, "a table (modules, matrix, flags, switches, runtime)")
        for value_key in values:
            if value_key not in HOST_KEYS:
                raise unknown_key(key, value_key, HOST_KEYS)
        modules = _string_list(values.get("modules", []), f"{key}.modules")
        settings.hosts[name] = HostValues(**vars(_platform_values(values, key)), modules=modules)
    anchor = data.get("anchor-host", {})
    _expect(anchor, dict, f"{source}: anchor-host", "a table")
    for key, value in anchor.items():
        where = f"{source}: anchor-host.{key}"
        if key == "parameters":
            settings.anchor_params = _string_list(value, where)
        elif key == "attributes":
            _expect(value, dict, where, "a table of attribute = expression")
            for name, text in value.items():
                settings.anchor_attributes[name] = _expression(text, f"{where}.{name}")
        else:
            raise ConfigError(f"{source}: unknown key 'anchor-host.{key}'")
    buffer_map = data.get("buffer-map", {})
    _expect(buffer_map, dict, f"{source}: buffer-map", "a table of host name = [device names]")
    for host_name, device_names in buffer_map.items():
        settings.buffer_map[host_name] = _string_list(
            device_names, f"{source}: buffer-map.{host_name}"
        )


def _expression(text: Any, where: str) -> str:
    """A Python expression (an anchor host's attribute), checked to parse."""
    _expect(text, str, where, "a Python expression as a string")
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        raise ConfigError(f"{where}: {text!r} is not a Python expression") from None
    return text


def _string_list_of_ints(value: Any, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
        or value[0] == value[1]
    ):
        raise ConfigError(f"{where}: expected two different positive integers")
    return (value[0], value[1])


def pack_path(name: str, base: Path | None) -> Path:
    """A pack is a bundled name (rules/<name>.toml) or a path to a TOML file (relative to the
    config)."""
    if name.endswith(".toml") or "/" in name:
        path = Path(name)
        return path if path.is_absolute() or base is None else base / path
    return RULES_DIR / f"{name}.toml"


def load_settings(config_path: Path | None, packs_override: list[str] | None = None) -> Settings:
    """Settings from the bundled/default packs, then the project's `[tool.layout-audit]` table."""
    settings = Settings()
    project: dict = {}
    if config_path is not None:
        data = _read_toml(config_path)
        tool = _expect(data.get("tool", {}), dict, f"{config_path}: tool", "a table")
        if config_path.name == "pyproject.toml":
            project = tool.get(TABLE, {})
        else:
            project = tool.get(TABLE, data)
        for misspelt in MISSPELT_TABLES:
            if misspelt in tool:
                settings.warnings.append(
                    f"{config_path}: [tool.{misspelt}] is not read; the table is [tool.{TABLE}]"
                )
        settings.config_file = str(config_path)
    source = str(config_path) if config_path else "<defaults>"
    _expect(project, dict, f"{source}: [tool.layout-audit]", "a table")
    project = dict(project)
    packs = project.pop("rule-packs", list(default_packs()))
    packs = _string_list(packs, f"{source}: rule-packs")
    if packs_override:
        packs = packs_override
    for name in packs:
        path = pack_path(name, config_path.parent if config_path else None)
        if not path.is_file():
            raise ConfigError(f"{source}: rule-packs: no rule pack {name!r} (looked for {path})")
        apply_pack(settings, _read_toml(path), str(path))
        settings.packs.append(name)
    for key in ("select", "ignore", "include", "exclude", "extend-exclude"):
        if key in project:
            values = _string_list(project.pop(key), f"{source}: {key}")
            if key in ("select", "ignore"):  # codes are checked against the checks' own
                settings.codes_from = source
            setattr(settings, key.replace("-", "_"), values)
    if "respect-gitignore" in project:
        settings.respect_gitignore = _expect(
            project.pop("respect-gitignore"), bool, f"{source}: respect-gitignore", "true or false"
        )
    for key in ("fail-on-uncompared", "fail-on-unresolved"):
        if key in project:
            setattr(
                settings,
                key.replace("-", "_"),
                _expect(project.pop(key), bool, f"{source}: {key}", "true or false"),
            )
    if "pairs" in project:
        pairs = _expect(
            project.pop("pairs"), dict, f"{source}: pairs", "a table of host = [devices]"
        )
        for host, devices in pairs.items():
            settings.pairs[host] = _string_list(devices, f"{source}: pairs.{host}")
    if "output-format" in project:
        output_format = _expect(
            project.pop("output-format"), str, f"{source}: output-format", "a string"
        )
        if output_format not in OUTPUT_FORMATS:
            raise ConfigError(
                f"{source}: output-format: expected one of {', '.join(OUTPUT_FORMATS)}, got {output_format!r}"
            )
        settings.output_format = output_format
    if "baseline" in project:
        baseline = _expect(project.pop("baseline"), str, f"{source}: baseline", "a file name")
        base = config_path.parent if config_path is not None else Path(".")
        settings.baseline = str(base / baseline)
    apply_pack(settings, project, f"{source}: [tool.layout-audit]", PROJECT_KEYS)
    _note_project_dimensions(settings, project, source)
    if (not settings.token_params or not settings.layer_params) and not settings.engine_tables:
        # a pack of an engine's own table only may have no pools to size
        raise ConfigError(
            f"{source}: no token/layer parameter names (parameters.tokens / parameters.layers)"
        )
    return settings


def _note_project_dimensions(settings: Settings, project: dict, source: str) -> None:
    """Where the project's own table sets each config value: (kind, name) -> "file: key"."""
    found = settings.project_dimensions
    for kind in ("matrix", "flags", "switches"):
        for name in project.get(kind, {}):
            found[(kind, name)] = f"{source}: {kind}.{name}"
    for getter, table in project.get("runtime", {}).items():
        for attribute in _flatten(table):
            found[("runtime", f"{getter}.{attribute}")] = f"{source}: runtime.{getter}.{attribute}"


def find_config(paths: list[Path]) -> Path | None:
    """The nearest `pyproject.toml` with a `[tool.layout-audit]` table above the given paths."""
    for start in paths:
        current = start.resolve()
        if current.is_file():
            current = current.parent
        for directory in [current, *current.parents]:
            candidate = directory / "pyproject.toml"
            if candidate.is_file():
                try:
                    data = _read_toml(candidate)
                except ConfigError:
                    return candidate  # reported when loaded
                tool = data.get("tool", {})
                if isinstance(tool, dict) and any(t in tool for t in (TABLE, *MISSPELT_TABLES)):
                    return candidate  # a misspelt table is warned about when loaded
    return None
