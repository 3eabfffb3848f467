import argparse


def parse(argv=None):
    p = argparse.ArgumentParser(prog="srv")
    p.add_argument("--model-path", type=str, default="meta-llama/Llama-3-8B")
    p.add_argument("--tokenizer-mode", default="auto", choices=["auto", "slow"])
    p.add_argument("--load-format", default="auto",
                   choices=["auto", "pt", "safetensors", "npcache", "dummy", "gguf", "bitsandbytes", "layered"])
    p.add_argument("--dtype", default="auto", choices=["auto", "half", "float16", "bfloat16", "float", "float32"])
    p.add_argument("--quantization", default=None,
                   choices=["awq", "fp8", "gptq", "marlin", "gptq_marlin", "awq_marlin", "bitsandbytes", "gguf"])
    p.add_argument("--attention-backend", default="flashinfer",
                   choices=["flashinfer", "triton", "torch_native", "fa3", "flashmla", "cutlass_mla"])
    p.add_argument("--sampling-backend", default="flashinfer", choices=["flashinfer", "pytorch"])
    p.add_argument("--schedule-policy", default="fcfs", choices=["lpm", "random", "fcfs", "dfs-weight"])
    p.add_argument("--kv-dtype", default="bf16", choices=["bf16", "fp16", "fp8_e4m3"])
    p.add_argument("--max-tokens", type=int, default=4096)
    p.add_argument("--host-tokens", type=int, default=8192)
    p.add_argument("--tp", type=int, default=1)
    p.add_argument("--trust-remote-code", action="store_true")
    p.add_argument("--disable-radix-cache", action="store_true")
    p.add_argument("--enable-torch-compile", action="store_true")
    p.add_argument("--disable-cuda-graph", action="store_true")
    return p.parse_args(argv)
