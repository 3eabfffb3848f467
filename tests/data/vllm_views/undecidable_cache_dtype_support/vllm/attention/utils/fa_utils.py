from vllm.platforms import current_platform


def flash_attn_supports_fp8() -> bool:
    return current_platform.get_device_capability().major == 9
