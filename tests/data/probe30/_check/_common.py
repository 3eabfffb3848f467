import os
import sys
import warnings

warnings.filterwarnings("ignore")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def use_tree(name):
    path = os.path.join(ROOT, name)
    sys.path.insert(0, path)
    return path


def bptl(tensors, tokens, layers):
    """Bytes per token per layer of a tensor (or list of tensors) holding
    `tokens` tokens for each of `layers` layers."""
    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    total = sum(t.nbytes for t in tensors)
    assert total % (tokens * layers) == 0, (total, tokens, layers)
    return total // (tokens * layers)


def expect(name, got, want):
    print(f"{name}: {got} (expected {want})")
    assert got == want, f"{name}: got {got}, expected {want}"
