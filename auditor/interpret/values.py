"""What the interpreter's values can be: known Python/torch values, or Unknown with a reason.

Known scalars are plain Python values (int, float, bool, str, None, tuple, list, dict) and real
torch dtypes. The classes below model everything else the audited code can hold.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from auditor.location import Location

if TYPE_CHECKING:  # names of annotations only: the values load without libcst
    import libcst as cst

    from auditor.frontend.index import ClassInfo, FunctionInfo, ModuleInfo

# > 0 while a lanes build runs (lanes.py): an Unknown naming lanes in its words diverges it
LANES_ACTIVE = [0]


class Diverged(BaseException):
    """The lanes of a lanes build would part here (lanes.py): the caller builds the point one
    token count at a time. A BaseException, so that no `except Exception` of the interpreter
    turns it into a value."""


class Why(enum.Enum):
    """What kind of not-knowing an Unknown is. Decisions read this, never the reason's words."""

    NOT_MODELLED = "not modelled"  # a value or construct the interpreter does not model
    OUTSIDE_CALL = "outside the audited tree"  # a call or name the audited tree does not define
    OUTSIDE_BASE = "base class outside the audited tree"  # construction or lookup in one
    UNRESOLVED_CALL = "call of an unresolved function"  # calling a value that is itself unknown
    UNDECIDED = "undecided path"  # set, raised or returned on a path not decided
    MISSING_ARGUMENT = "missing argument"  # a parameter with no argument and no default
    LIMIT = "limit"  # a work bound was reached
    CONFIG_NOT_LISTED = "config value not listed"  # a config read the matrix has no value for
    CALLERS = "the callers' argument"  # a parameter of the function a site run starts in
    LOOKUP = "lookup failed"  # a key or index the code's own container does not hold


@dataclass(frozen=True)
class Unknown:
    """A value the interpreter could not determine: its reason (words for people), where, what
    kind of not-knowing it is (`why`) and the Unknown it follows from (`cause`), if any.

    Equality is the words and the place, as it always was: two Unknowns saying the same thing
    at the same place are one item of a report."""

    reason: str
    location: Location | None = None
    why: Why = field(default=Why.NOT_MODELLED, compare=False)
    cause: Unknown | None = field(default=None, compare=False, repr=False)
    detail: str = field(default="", compare=False)  # what the kind is about: the name called

    def __post_init__(self) -> None:
        if LANES_ACTIVE[0] and "TokenLanes" in self.reason:
            raise Diverged

    def caused_by(self, why: Why) -> bool:
        """Whether this Unknown, or one it follows from, is of that kind."""
        link: Unknown | None = self
        while link is not None:
            if link.why is why:
                return True
            link = link.cause
        return False

    def __bool__(self) -> bool:  # guard against accidental truth tests
        raise TypeError("Unknown has no truth value; test with is_unknown()")


@dataclass(frozen=True)
class UnknownAllocation(Unknown):
    """A tensor the code certainly allocates, whose size could not be determined: a buffer
    whatever the attribute holding it is named, so it is reported, never left out."""


class OneShot(list):
    """An iterator (`reversed(x)`) modelled as the items it yields: iterated (`for`, `list()`,
    `tuple()`) as they are; indexed, measured with `len()` or stepped with `next()` it is not
    (Python refuses the first two, and the third moves it on), so those are unknown."""

    __slots__ = ()


class StandInSample(int):
    """A number a composed run gives an attribute of a stand-in nothing says the type of
    (evaluate.py): compared with text, it demands that text (ConfigPoint._compared)."""

    __slots__ = ()


@dataclass(frozen=True)
class PartialSequence(Unknown):
    """A sequence whose first items are known and whose rest is not: `(info, *drafts)` with
    `drafts` unknown. Unknown to everything but a `for` loop (and `enumerate`), which runs
    the known items, so a `raise` on the first one is still decided, then leaves the rest
    undecided."""

    known: tuple = ()


def is_unknown(value: object) -> bool:
    return isinstance(value, Unknown)


_tensor_ids = itertools.count()


@dataclass(eq=False)
class Tensor:
    """A tensor allocated by the audited code: its shape, dtype, bytes and where it was made."""

    shape: tuple[int, ...]
    dtype: Any
    nbytes: int
    site: Location
    dims_text: tuple[str, ...] = ()
    ident: int = field(default_factory=lambda: next(_tensor_ids))
    trace: tuple[Location, ...] = ()  # audited call sites active when it was allocated
    view_of: int | None = None  # a view (`buf[0]`, `unbind`): the ident of the tensor it reads
    device: Any = None  # where `torch.tensor(..., device=d)` put it (its `.device`)
    metadata: bool = False  # built from data (`torch.tensor([ptr, ...])`): a table, not a buffer


class DeviceText(str):
    """A `torch.device`, modelled as its text ("cpu", "cuda:0"): a tensor's `.device` and
    `torch.device(...)` give one, so `isinstance(x, torch.device)` is decided (a plain text,
    as passed by the code for `device="cpu"`, is no torch.device)."""

    __slots__ = ()


@dataclass(eq=False)
class Instance:
    """An object of an audited class, built by the interpreter."""

    cls: ClassInfo
    attrs: dict[str, Any] = field(default_factory=dict)
    # set when an attribute may have been assigned on a path the interpreter could not decide
    incomplete: Unknown | None = None
    # blocks of its construction that contain `raise` and could not be decided (why, where)
    may_raise: list[Unknown] = field(default_factory=list)
    set_sites: dict[str, Location] = field(default_factory=dict)
    # the numbers its `__init__` was given, by parameter (`block_size=16` of a pool that keeps
    # no `self.block_size`: measure.py's tokens per block)
    given: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, eq=False)
class ClassRef:
    cls: ClassInfo


@dataclass(frozen=True, eq=False)
class FunctionRef:
    """An audited function; `bound` is the receiver for methods (an Instance or ClassRef)."""

    function: FunctionInfo
    bound: Any = None
    owner: ClassInfo | None = None
    # a function defined inside another: the enclosing call's names (live, as Python's cells)
    closure: dict | None = None


@dataclass(frozen=True, eq=False)
class ModuleRef:
    module: ModuleInfo


@dataclass(frozen=True)
class ExternalRef:
    """A name defined outside the audited tree (`torch.zeros`, `math.ceil`, `builtins.min`)."""

    name: str


@dataclass(frozen=True, eq=False)
class SuperProxy:
    """`super()` inside a method: attribute lookup starts after `after` in the MRO of `obj`."""

    obj: Any
    after: ClassInfo


@dataclass(eq=False)
class AttributeBag:
    """A plain object of attributes made outside the tree (`types.SimpleNamespace(tp=2)`, the
    namespace `argparse` parses): read and set as the code reads and sets them."""

    kind: str
    attrs: dict = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class BoundBuiltin:
    """A method of a known value (`list.append`, `tensor.view`, `dict.get`)."""

    receiver: Any
    name: str


@dataclass(frozen=True, eq=False)
class Lambda:
    node: cst.Lambda
    module: ModuleInfo
    scope: dict


@dataclass(frozen=True, eq=False)
class Partial:
    """`functools.partial(torch.zeros, device=device)`: the function, with what it is given
    before the arguments of each call."""

    func: Any
    args: tuple
    kwargs: dict


@dataclass(frozen=True)
class RuntimeObject:
    """What a process-wide runtime getter returns (`get_parallel()`), or an object inside it
    (`get_exec().kernel`): its attributes are config dimensions from the rule pack's
    `[runtime.<getter>]` table, named by their path (`get_exec().kernel.enable_x`). Also a
    constructor parameter whose attributes the matrix lists (`cache_params.shape.temporal`):
    `listed`, it has no attribute the matrix does not list (`getattr(p, "x", None)` is None)."""

    path: str
    listed: bool = False  # a parameter the matrix lists the attributes of, which has no other
    # the class a constructor's config object is annotated with (`spec: KVSpec`): its
    # properties and methods are run on the stand-in (`spec.page_bytes` from its fields)
    klass: Any = field(default=None, compare=False, repr=False)
    # a stand-in for an object a function run is given (composed.py): `settings or load()`
    # takes it, as an object is true
    given: bool = field(default=False, compare=False)
    # a parameter of the function run that nothing gives a value (site_run._passed_whole): an
    # object whose attributes are sampled, or, used as a number, a number sampled in turn
    loose: bool = field(default=False, compare=False)
    # the code's own mapping it stands in for (`cfg=LLAMA_CONFIG`, a dict the function
    # defaults to): which keys it has is the code's (`"head_dim" in cfg` is decided,
    # `cfg.get("num_kv_heads", h)` of an absent key is h), and so are its numbers, flags and
    # Nones, one coherent model (`hidden_size // num_attention_heads` of samples drawn apart
    # is no head size); its texts, the choices, are the point's as before
    known: Any = field(default=None, compare=False, hash=False)

    @property
    def keys(self) -> frozenset | None:
        return frozenset(self.known) if isinstance(self.known, dict) else None


@dataclass(frozen=True)
class MemberName:
    """A config value that is an enum member of the audited code (`ScaleMode.PER_TOKEN`), by
    the name the code writes it with in `module`: the interpreter resolves it when the value
    is read, to the very member the code compares with. Shown as written."""

    module: str
    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


@dataclass(frozen=True)
class ConfigDependency:
    """A lazily read config value: binding a parameter does not count as depending on it."""

    name: str


class DefaultDict(dict):
    """`collections.defaultdict`: a missing key calls `factory` (an interpreter value)."""

    def __init__(self, factory: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.factory = factory
