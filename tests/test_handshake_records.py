"""A receiving pool sized from a record the sending pool publishes, its dtype carried as text
(`str(pool.dtype).replace("torch.", "")`, read back with `getattr(torch, name)`), both built by
one function that first checks a property of its config (`assert cfg.attention_kind is
Kind.LATENT`): the property runs on the run's stand-in instead of being sampled as a number,
`str()` of a dtype is the text torch gives, and the pair is compared with no configuration,
checked against the tree's own tensors on the meta device."""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

CONFIG = """
    from dataclasses import dataclass
    from enum import Enum

    import torch


    class Kind(Enum):
        FULL = "full"
        LATENT = "latent"


    @dataclass
    class ModelShape:
        n_layers: int = 4
        latent_width: int = 512
        rope_width: int = 64
        dtype: torch.dtype = torch.bfloat16

        @property
        def attention_kind(self) -> Kind:
            return Kind.LATENT if self.latent_width else Kind.FULL
"""

POOLS = """
    from dataclasses import dataclass

    import torch


    class SenderPool:
        def __init__(self, slots: int, n_layers: int, latent_width: int, rope_width: int,
                     dtype: torch.dtype, device="cuda"):
            self.slots, self.n_layers, self.dtype = slots, n_layers, dtype
            self.latent_width, self.rope_width = latent_width, rope_width
            self.rows = [torch.empty((slots, 1, latent_width + rope_width), dtype=dtype,
                                     device=device) for _ in range(n_layers)]


    @dataclass
    class Record:
        n_layers: int
        dtype: str
        latent_width: int
        rope_width: int


    def publish(pool: SenderPool) -> Record:
        return Record(pool.n_layers, str(pool.dtype).replace("torch.", ""),
                      pool.latent_width, pool.rope_width)


    class ReceiverPool:
        def __init__(self, record: Record, slots: int, device="cuda"):
            dtype = getattr(torch, record.dtype)
            width = WIDTH
            self.rows = [torch.empty((slots, 1, width), dtype=dtype, device=device)
                         for _ in range(record.n_layers)]
"""

LINK = """
    from typing import Optional

    from .config import Kind, ModelShape
    from .pools import ReceiverPool, SenderPool, publish


    def open_link(shape: Optional[ModelShape] = None, slots: int = 64, device="cuda"):
        shape = shape or ModelShape()
        assert shape.attention_kind is Kind.LATENT
        sender = SenderPool(slots, shape.n_layers, shape.latent_width, shape.rope_width,
                            shape.dtype, device=device)
        receiver = ReceiverPool(publish(sender), slots, device=device)
        return sender, receiver
"""


@pytest.mark.parametrize(
    "width, bug",
    [("record.latent_width + record.rope_width", False), ("record.latent_width", True)],
)
def test_a_receiver_sized_from_a_published_record(tmp_path, capsys, monkeypatch, width, bug):
    write_tree(
        tmp_path,
        {
            "link/__init__.py": "",
            "link/config.py": CONFIG,
            "link/pools.py": POOLS.replace("WIDTH", width),
            "link/wire.py": LINK,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "rows")} if bug else set())
    # the oracle: the tree's own function at its config's defaults, on the meta device
    sender, receiver = built_by_the_tree(
        tmp_path, monkeypatch, "link", "wire", "open_link", device="meta"
    )
    assert (sender.rows[0].nbytes != receiver.rows[0].nbytes) is bug
    if bug:
        assert "bfloat16" in report["findings"][0]["message"]
