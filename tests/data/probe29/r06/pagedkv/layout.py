"""Page layouts understood by the attention backends."""
import enum


class KVLayout(enum.Enum):
    NHD = "nhd"   # [num_pages, page_size, heads, dim]
    HND = "hnd"   # [num_pages, heads, page_size, dim]

    def page_shape(self, page_size, heads, dim):
        if self is KVLayout.NHD:
            return (page_size, heads, dim)
        return (heads, page_size, dim)

    @classmethod
    def parse(cls, value):
        return value if isinstance(value, cls) else cls(str(value).lower())
