# (block size in elements, bytes per block)
GGML_TYPE_TRAITS = {
    "f32": (1, 4),
    "f16": (1, 2),
    "bf16": (1, 2),
    "q8_0": (32, 34),
    "q4_0": (32, 18),
    "q4_1": (32, 20),
    "q5_0": (32, 22),
}


def ggml_row_size(type_name: str, ne: int) -> int:
    blck, type_size = GGML_TYPE_TRAITS[type_name]
    assert ne % blck == 0, (type_name, ne)
    return ne // blck * type_size
