"""Stage 3, from pool classes to figures: the config matrix, pools built at each point, bytes measured."""
