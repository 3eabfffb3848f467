import configparser

DEFAULT_INI = """
[model]
num_layers = 32
num_kv_heads = 32
head_dim = 96

[cache]
page_size = 32
dtype = bf16
# attention kernels want 128-aligned head dims; 0 disables padding
pad_head_dim_to = 128

[prefill]
num_pages = 4096

[decode]
num_pages = 16384
"""


def load_conf(text: str = None) -> configparser.ConfigParser:
    cp = configparser.ConfigParser()
    cp.read_string(text or DEFAULT_INI)
    return cp
