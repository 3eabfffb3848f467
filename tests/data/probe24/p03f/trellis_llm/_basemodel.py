"""Tiny stand-in for pydantic.BaseModel (no third-party deps in the runtime image)."""
from typing import Any, Dict, get_type_hints


class StrictBaseModel:
    def __init__(self, **data: Any) -> None:
        hints = get_type_hints(type(self))
        unknown = set(data) - set(hints)
        if unknown:
            raise ValueError(f"{type(self).__name__}: unknown fields {sorted(unknown)}")
        for name in hints:
            if name in data:
                value = data[name]
            elif hasattr(type(self), name):
                value = getattr(type(self), name)
            else:
                raise ValueError(f"{type(self).__name__}: missing field {name!r}")
            setattr(self, name, value)
        self.model_post_init()

    def model_post_init(self) -> None:
        pass

    def model_dump(self) -> Dict[str, Any]:
        return {k: getattr(self, k) for k in get_type_hints(type(self))}
