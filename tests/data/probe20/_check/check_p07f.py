import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p07f"))
from _util import bptl, verify  # noqa: E402
from tgi_transfer.link import open_kv_link  # noqa: E402

snd, rcv = open_kv_link(send_device="meta", recv_device="meta")
L = len(snd.kv_rows)
assert len(rcv.kv_rows) == L
figures = ({
    "kv_rows": (bptl(rcv.kv_rows, rcv.tokens, L), bptl(snd.kv_rows, snd.tokens, L)),
})

assert all(a == b for a, b in figures.values()), figures
print("OK p07f")
