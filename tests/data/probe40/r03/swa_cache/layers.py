"""Which decoder layers attend globally and which use a sliding window."""
from typing import List, Tuple


def split_layers(num_layers: int, global_every: int) -> Tuple[List[int], List[int]]:
    full, local = [], []
    for i in range(num_layers):
        (full if (i + 1) % global_every == 0 else local).append(i)
    return full, local


def window_slots(max_running: int, sliding_window: int, page_size: int) -> int:
    # every running request keeps at most one window plus a partially filled page
    per_req = sliding_window + page_size
    return max_running * per_req
