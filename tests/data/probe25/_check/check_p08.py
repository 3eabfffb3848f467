import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl

CPU_ATTR = {"key_states": "k", "value_states": "v", "key_scales": "k_sc", "value_scales": "v_sc"}


def build(gen_init):
    from exlv.generator import SessionGenerator
    gen = SessionGenerator.__new__(SessionGenerator)
    gen_init(gen, device="meta", host_device="meta")
    dev, cpu = gen.cache, gen.parked
    out = {}
    for name, cname in CPU_ATTR.items():
        out[name] = (
            bptl(getattr(cpu, cname), cpu.batch_size * cpu.max_seq_len, cpu.num_layers),
            bptl(getattr(dev, name), dev.batch_size * dev.max_seq_len, dev.num_layers),
        )
    return dev, cpu, out


run("p08", build)
