"""torch dtypes as values carrying the facts read from the installed torch; never a hand table.

`import torch` costs more than a second, so the facts (each dtype's canonical name, itemsize,
kind flags, finfo/iinfo, and the default dtype) are read by a child process started as soon as
an audit knows it may need them (`start_reading`), while the parent goes on parsing; and they
are stored in the cache under a key naming that exact torch installation (its path, version
file, and the size and modification time of its `__init__.py`), so a later run with the same
torch imports nothing. The audit process itself never imports torch.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import warnings
from typing import Any

FACTS_FORMAT = 2
FLAGS = ("is_floating_point", "is_complex", "is_signed")


@functools.cache
def torch_module() -> Any:
    """Import torch in this process, quietly (a CPU build without numpy warns on import): for
    tests and for the fallback when the child process cannot run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch
    return torch


def read_facts(torch: Any) -> dict:
    """Everything the interpreter asks of torch's dtypes, as JSON data, from torch itself."""
    dtypes: dict[str, dict] = {}
    names: dict[str, str] = {}
    for attribute in sorted(dir(torch)):
        value = getattr(torch, attribute, None)
        if not isinstance(value, torch.dtype):
            continue
        canonical = str(value).removeprefix("torch.")
        names[attribute] = canonical
        if canonical in dtypes:
            continue
        facts: dict[str, Any] = {"itemsize": int(value.itemsize)}
        for flag in FLAGS:
            try:
                facts[flag] = bool(getattr(value, flag))
            except RuntimeError as error:  # torch.bits8.is_signed: "Bits types are undefined"
                facts[flag] = str(error)
        for kind in ("finfo", "iinfo"):
            try:
                info = getattr(torch, kind)(value)
                facts[kind] = {
                    "bits": info.bits,
                    "max": info.max,
                    "min": info.min,
                    "dtype": str(info.dtype),
                }
            except TypeError as error:  # not a floating (finfo) or integer (iinfo) dtype
                facts[kind] = {"error": str(error)}
            except Exception as error:  # noqa: BLE001 - raised again where it was asked
                facts[kind] = {"raise": type(error).__name__, "error": str(error)}
        dtypes[canonical] = facts
    default = str(torch.get_default_dtype()).removeprefix("torch.")
    version = str(getattr(torch, "__version__", "?"))
    return {
        "format": FACTS_FORMAT,
        "names": names,
        "dtypes": dtypes,
        "default": default,
        "version": version,
    }


def valid_facts(data: object) -> bool:
    """Whether stored or received facts have the shape read_facts writes."""
    if not isinstance(data, dict) or data.get("format") != FACTS_FORMAT:
        return False
    names, table = data.get("names"), data.get("dtypes")
    if not isinstance(names, dict) or not isinstance(table, dict):
        return False
    if not all(isinstance(v, str) and v in table for v in names.values()):
        return False
    for facts in table.values():
        if not isinstance(facts, dict) or not isinstance(facts.get("itemsize"), int):
            return False
        if not all(isinstance(facts.get(flag), (bool, str)) for flag in FLAGS):
            return False
        if not all(isinstance(facts.get(kind), dict) for kind in ("finfo", "iinfo")):
            return False
    return data.get("default") in table


class TorchDtype:
    """A torch dtype as the interpreter sees it: one object per canonical name (so `is` and
    `==` behave as torch's), printing as torch's (`torch.bfloat16`), its facts read from the
    installed torch on first use. It also equals the real torch dtype of that name (tests and
    settings may hold those)."""

    __slots__ = ("name",)
    _interned: dict[str, TorchDtype] = {}

    def __new__(cls, name: str) -> TorchDtype:
        known = cls._interned.get(name)
        if known is None:
            known = object.__new__(cls)
            object.__setattr__(known, "name", name)
            cls._interned[name] = known
        return known

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a dtype is immutable")

    def __str__(self) -> str:
        return f"torch.{self.name}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TorchDtype):
            return other is self
        return is_torch_dtype(other) and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(("dtype", self.name))

    def __reduce__(self) -> tuple:
        return (_named, (self.name,))

    def __copy__(self) -> TorchDtype:
        return self

    def __deepcopy__(self, memo: dict) -> TorchDtype:
        return self

    def _facts(self) -> dict:
        return facts()["dtypes"][self.name]

    @property
    def itemsize(self) -> int:
        return self._facts()["itemsize"]

    def _flag(self, flag: str) -> bool:
        value = self._facts()[flag]
        if isinstance(value, str):  # torch raised this when asked
            raise RuntimeError(value)
        return value

    @property
    def is_floating_point(self) -> bool:
        return self._flag("is_floating_point")

    @property
    def is_complex(self) -> bool:
        return self._flag("is_complex")

    @property
    def is_signed(self) -> bool:
        return self._flag("is_signed")

    def info(self, kind: str) -> dict:
        """torch.finfo/iinfo of this dtype as {bits, max, min, dtype}, or {"error": text}."""
        return self._facts()[kind]


# messages name a value's type (`type(value).__name__`): a dtype's stays torch's
TorchDtype.__name__ = TorchDtype.__qualname__ = "dtype"


def _named(name: str) -> TorchDtype:
    """Unpickling: the one value of that name (the class's own name is torch's, see above)."""
    return TorchDtype(name)


def is_torch_dtype(value: object) -> bool:
    """A real torch.dtype object (checked without importing torch)."""
    return type(value).__name__ == "dtype" and type(value).__module__ == "torch"


def is_dtype(value: object) -> bool:
    return isinstance(value, TorchDtype)


def dtype_by_name(name: str) -> TorchDtype | None:
    """`"bfloat16"`, `"torch.bfloat16"` or `"half"` -> the dtype; None if torch has no such
    dtype."""
    canonical = facts()["names"].get(name.removeprefix("torch."))
    return TorchDtype(canonical) if canonical is not None else None


def from_torch(value: object) -> object:
    """A real torch dtype (tests, settings built in code) as the interpreter's value; any
    other value unchanged."""
    return TorchDtype(str(value).removeprefix("torch.")) if is_torch_dtype(value) else value


def default_dtype() -> TorchDtype:
    """torch.get_default_dtype() of a fresh torch."""
    return TorchDtype(facts()["default"])


# Names torch gives dtypes (`float8_e4m3fn`, `float4_e2m1fn_x2`, `uint4`, `bits8`, `qint8`...):
# `torch.<such a name>` that the installed torch lacks is a dtype of a newer torch, not an
# unknown library attribute, and is reported as such.
_DTYPE_SHAPED = re.compile(r"(?:b?float|u?int|complex|bits|qu?int)\d+\w*")


def looks_like_dtype_name(name: str) -> bool:
    return _DTYPE_SHAPED.fullmatch(name.removeprefix("torch.")) is not None


def torch_version() -> str:
    """The installed torch's version, as in messages: `2.13.0+cpu` (from the facts: no import)."""
    return str(facts().get("version", "?"))


def missing_dtype_reason(name: str) -> str:
    """Why `torch.<name>` has no size here: the installed torch predates that dtype."""
    short = name.removeprefix("torch.")
    return f"torch.{short}: no such dtype in the installed torch {torch_version()} (a newer torch has it)"


def dtype_name(dtype: Any) -> str:
    """torch.bfloat16 -> "bfloat16"."""
    return str(dtype).removeprefix("torch.")


def itemsize(dtype: Any) -> int:
    return int(dtype.itemsize)


# --- where the facts come from ---------------------------------------------------------------

_state: dict[str, Any] = {}  # "facts": the table; "reader": the pending child; "store"
_lock = threading.Lock()


def installation_key() -> list | None:
    """What names the installed torch without importing it: where it is, its version file's
    bytes, and the size and modification time of its `__init__.py` and `version.py`; None if
    torch cannot be found."""
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = os.path.dirname(spec.origin)
    parts: list = [spec.origin]
    for name in ("__init__.py", "version.py"):
        path = os.path.join(folder, name)
        try:
            info = os.stat(path)
            with open(path, "rb") as handle:
                data = handle.read() if name == "version.py" else b""
        except OSError:
            return None
        parts.append([name, info.st_size, info.st_mtime_ns, info.st_ino, data.decode("latin-1")])
    return parts


def _child_command() -> list[str]:
    """The child: isolated (`-I`: no current directory on its path, so nothing in an audited
    tree can be imported), given this process's path without the current directory."""
    path = [p for p in sys.path if p and os.path.abspath(p) != os.getcwd()]
    here = os.path.dirname(os.path.abspath(__file__))
    code = (
        "import json, sys, warnings\n"
        "sys.path[:] = json.loads(sys.argv[1])\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore')\n"
        "    import torch\n"
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('_dtypes', sys.argv[2])\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "sys.stdout.write(json.dumps(module.read_facts(torch)))\n"
    )
    return [sys.executable, "-I", "-c", code, json.dumps(path), os.path.join(here, "dtypes.py")]


def start_reading(cache: Any = None) -> None:
    """Make the facts available without waiting: from the cache if it holds them for this
    torch installation, else from a child process started now (its answer is stored in the
    cache). Does nothing if they are already known or being read."""
    with _lock:
        if "facts" in _state or "reader" in _state:
            return
        key = installation_key()
        if cache is not None and cache.enabled and key is not None:
            stored = cache.get("dtypes", _cache_key(key))
            if valid_facts(stored):
                _state["facts"] = stored
                return
            _state["store"] = (cache, _cache_key(key))
        try:
            _state["reader"] = subprocess.Popen(
                _child_command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            pass  # read in this process when needed


def _cache_key(installation: list) -> str:
    """The cache key of the facts of one torch installation (hashed as cache.key_of hashes:
    this module sits below the cache's layer, so it cannot import it)."""
    text = json.dumps(["dtype-facts", FACTS_FORMAT, installation], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def facts() -> dict:
    """The facts, from (in order) memory, the child started earlier, or torch imported here."""
    table = _state.get("facts")
    if table is not None:
        return table
    start_reading(None)  # nobody started a child yet (settings read outside an audit)
    with _lock:
        if "facts" in _state:
            return _state["facts"]
        reader = _state.pop("reader", None)
        table = None
        if reader is not None:
            output, _ = reader.communicate()
            try:
                received = json.loads(output) if reader.returncode == 0 else None
            except ValueError:
                received = None
            table = received if valid_facts(received) else None
        if table is None:  # no child, or it failed: torch here (its own error if it has one)
            table = read_facts(torch_module())
        store = _state.pop("store", None)
        if store is not None:
            cache, key = store
            cache.put("dtypes", key, table)
        _state["facts"] = table
        return table


def stop_reading() -> None:
    """End a child whose facts were never needed (an audit that found no pool)."""
    with _lock:
        reader = _state.pop("reader", None)
        _state.pop("store", None)
    if reader is not None:
        reader.kill()
        reader.wait()


def forget() -> None:
    """Forget the facts read (tests: the next audit reads them again)."""
    stop_reading()
    with _lock:
        _state.clear()


def facts_known() -> bool:
    """Whether the facts are already in memory (asking would not wait for torch)."""
    return "facts" in _state
