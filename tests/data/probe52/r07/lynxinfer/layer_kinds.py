"""Which decoder layers use sliding-window attention."""
from collections import defaultdict

SLIDING = "sliding_attention"
GLOBAL = "full_attention"


def layer_kinds(cfg):
    explicit = getattr(cfg, "layer_types", None)
    if explicit:
        return list(explicit)
    pattern = getattr(cfg, "sliding_window_pattern", 2)
    # every pattern-th layer attends globally, the rest use the window
    return [GLOBAL if (i + 1) % pattern == 0 else SLIDING for i in range(cfg.num_hidden_layers)]


def group_layers(kinds):
    groups = defaultdict(list)
    for idx, kind in enumerate(kinds):
        groups[kind].append(idx)
    return dict(groups)
