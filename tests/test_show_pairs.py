"""`--show-pairs` and the pairing evidence in every output format."""

from __future__ import annotations

import json

from auditor.cli import main

FORGOTTEN = "fixtures/forgotten_override_buggy"
DISPATCH = "fixtures/dispatch_subclass"


def test_text_lists_each_pair_with_its_site_and_guards(capsys):
    code = main(["--isolated", "--show-pairs", DISPATCH])
    out = capsys.readouterr().out
    assert code == 0
    lines = [line.strip() for line in out.splitlines() if " <- " in line]
    assert len(lines) == 2
    fp4 = next(line for line in lines if line.startswith("MLATokenToKVPoolFP4Host <- "))
    assert fp4.startswith("MLATokenToKVPoolFP4Host <- MLATokenToKVPoolFP4: call site ")
    assert "hiradix_cache.py:19; guards: isinstance(self.kv_cache, MLATokenToKVPoolFP4)" in fp4
    plain = next(line for line in lines if line.startswith("MLATokenToKVPoolHost <- "))
    assert plain.startswith("MLATokenToKVPoolHost <- MLATokenToKVPool: call site ")
    assert "not (isinstance(self.kv_cache, MLATokenToKVPoolFP4))" in plain


def test_json_findings_carry_the_evidence_and_show_pairs_appends_the_pairs(capsys):
    assert main(["--isolated", "--output-format", "json", FORGOTTEN]) == 1
    without = json.loads(capsys.readouterr().out)
    assert "pairs" not in without
    plain = without["findings"]
    assert [item["code"] for item in plain] == ["LA001"]
    evidence = plain[0]["pairing_evidence"]
    assert evidence["kind"] == "call site"
    assert evidence["site"]["function"].endswith("decode_offload.build_offload_pool")
    assert evidence["declared"] == "parameter annotation kv_cache: MLATokenToKVPool"
    assert "override_kv_cache_dim" not in evidence["arguments"]

    assert main(["--isolated", "--output-format", "json", "--show-pairs", FORGOTTEN]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["findings"] == plain
    pairs = [item for item in document["pairs"] if item["code"] == "PAIR"]
    assert all(item["code"] in ("PAIR", "NOT-A-HOST", "NOT-PAIRED") for item in document["pairs"])
    assert len(pairs) == 4
    nsa = [p for p in pairs if p["device"] == "NSATokenToKVPool"]
    assert sorted(p["pairing_evidence"]["site"]["path"].rsplit("/", 1)[1] for p in nsa) == [
        "decode_offload.py",
        "hiradix_cache.py",
    ]


def test_github_and_sarif_still_render_a_call_site_finding(capsys):
    assert main(["--isolated", "--output-format", "github", FORGOTTEN]) == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=fixtures/forgotten_override_buggy/sglang/srt/")
    assert "decode_offload.py,line=13" in out
    assert main(["--isolated", "--output-format", "sarif", FORGOTTEN]) == 1
    sarif = json.loads(capsys.readouterr().out)
    [result] = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith("decode_offload.py")
    assert location["region"]["startLine"] == 13
