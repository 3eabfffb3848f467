import torch


class NamedBuffers:
    """Mixin: tensors kept in a name -> tensor registry, readable as attributes."""

    def _register(self, name, tensor):
        self.__dict__.setdefault("_bufs", {})[name] = tensor
        return tensor

    def __getattr__(self, name):
        bufs = self.__dict__.get("_bufs", {})
        if name in bufs:
            return bufs[name]
        raise AttributeError(name)

    def named_buffers(self):
        return dict(self.__dict__.get("_bufs", {}))


def dtype_of(name):
    return getattr(torch, name)
