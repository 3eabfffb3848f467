"""Tiny shape algebra used by the allocators."""
import math


class Shape:
    def __init__(self, *dims: int):
        self.dims = tuple(int(d) for d in dims)

    def __mul__(self, n: int) -> "Shape":
        # n * Shape(row) -> n rows of that shape
        return Shape(int(n), *self.dims)

    __rmul__ = __mul__

    def __iter__(self):
        return iter(self.dims)

    @property
    def numel(self) -> int:
        return math.prod(self.dims)

    def __repr__(self):
        return f"Shape{self.dims}"
