class StartArgs:
    """Launch defaults for the router and model workers.

    The router reads these as class attributes; an instance is never created.
    """

    model_dir = "/data/models/llama-2-7b-chat"
    layer_num = 4
    head_num = 32
    head_dim = 128
    tp = 4
    max_total_token_num = 512
    data_type = "float16"
    mode = ["int8kv"]
    run_mode = "prefill"
    pd_max_transfer_tokens = 128
    pd_pin_memory = False
