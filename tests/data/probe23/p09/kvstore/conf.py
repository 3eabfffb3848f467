"""kvstore node configuration. We ship YAML but keep the parser in-tree (the
base image has no PyYAML); only nested mappings of scalars are supported."""

DEFAULT_CONF = """
model:
  name: gemma-2-9b-it
  depth: 42            # decoder layers
  kv_heads: 8
  head_dim: 256
shard:
  tp: 2
shelf:
  page_tokens: 16
  pages: 16384
  k_format: fp8g128    # fp8 rows + one fp32 scale per 128 channels
  v_format: bf16
tiers:
  enabled: spill
spill:
  path: /mnt/nvme/kvspill
  bay_pages: 2048
"""


class Conf(dict):
    __getattr__ = dict.__getitem__


def _scalar(text: str):
    text = text.split("#", 1)[0].strip()
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_conf(text: str = DEFAULT_CONF) -> Conf:
    root = Conf()
    stack = [(-1, root)]
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        key, _, value = raw.strip().partition(":")
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if value.split("#", 1)[0].strip():
            parent[key] = _scalar(value)
        else:
            parent[key] = Conf()
            stack.append((indent, parent[key]))
    return root
