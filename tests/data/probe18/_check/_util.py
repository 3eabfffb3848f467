import torch


def total_nbytes(x):
    if isinstance(x, torch.Tensor):
        return x.nbytes
    if isinstance(x, dict):
        return sum(total_nbytes(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return sum(total_nbytes(v) for v in x)
    if x is None:
        return 0
    raise TypeError(type(x))


def bptl(x, tokens, layers):
    n = total_nbytes(x)
    assert n % (tokens * layers) == 0, (n, tokens, layers)
    return n // (tokens * layers)
