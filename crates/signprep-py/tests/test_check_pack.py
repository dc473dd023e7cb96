"""check, pack and explain: the CLI's findings, body and documentation."""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any, Dict, List

import pytest

import signprep
from conftest import CHECK, EXAMPLE, ROOT, cli_binary, cli_records

TEMPLATE = CHECK / "templates" / "pricing.json"
CASES = sorted(p for p in (CHECK / "cases").iterdir() if p.is_file())


def without_values(findings: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    # The CLI adds the value each pointer names; the package leaves that to the caller.
    return [{k: v for k, v in f.items() if k != "value"} for f in findings]


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_check_findings_equal_cli(case: pathlib.Path) -> None:
    # As the CLI's own case test runs them: with the template, and a small
    # payload limit for payload_large.
    rel = str(case.relative_to(ROOT))
    code = case.name.split(".")[0]
    small = code == "payload_large"
    args = ["check", "--template", str(TEMPLATE.relative_to(ROOT)), rel]
    [expected] = cli_records(*args, *(["--max-payload", "1K"] if small else []))
    got = signprep.check(
        rel, templates=[TEMPLATE.read_text()], max_payload=1024 if small else 10 << 20
    )
    assert got["path"] == rel
    assert got["kind"] == expected.get("kind")
    assert got["findings"] == without_values(expected["findings"])
    assert code in [f["code"] for f in got["findings"]]


def test_check_takes_a_dict_and_a_kind() -> None:
    body = json.loads((CHECK / "cases" / "email_invalid.json").read_text())
    by_dict = signprep.check(body)
    assert by_dict["kind"] == "pack"
    assert [f["code"] for f in by_dict["findings"]] == [
        f["code"] for f in signprep.check(CHECK / "cases" / "email_invalid.json")["findings"]
    ]
    with pytest.raises(signprep.KindUnknown, match="name it with `kind=`"):
        signprep.check(b"hello")
    # An empty input never passes, and says why.
    with pytest.raises(signprep.KindUnknown, match="it is empty: nothing to check") as caught:
        signprep.check(b" \n")
    assert caught.value.code == "kind_unknown"
    with pytest.raises(ValueError, match="unknown kind"):
        signprep.check(body, kind="nonsense")


def test_pack_equals_the_cli_and_the_worked_example() -> None:
    body = signprep.pack(EXAMPLE / "pack.toml")
    assert body == json.loads((EXAMPLE / "expected" / "pack.json").read_text())
    out = subprocess.run(
        [cli_binary(), "pack", str(EXAMPLE / "pack.toml"), "--compact"],
        capture_output=True,
        check=True,
    )
    assert body == json.loads(out.stdout)


def test_pack_of_a_dict_manifest_with_a_seed_is_reproducible() -> None:
    manifest = {
        "name": "NDA",
        "signers": [{"handle": "client", "name": "Ann", "email": "ann@example.com"}],
        "documents": [
            {
                "path": "contracts/nda.pdf",
                "fields": [{"match": "*_CLIENT", "signer": "client"}],
            }
        ],
    }
    a = signprep.pack(manifest, base_dir=EXAMPLE, seed=7)
    b = signprep.pack(manifest, base_dir=EXAMPLE, seed=7)
    assert a == b
    assert a["signatories"][0]["email"] == "ann@example.com"
    assert a["documents"][0]["data_fields"], "the NDA's *_CLIENT tags are fields"
    assert signprep.pack(manifest, base_dir=EXAMPLE, seed=8) != a


def test_pack_error_carries_every_finding() -> None:
    with pytest.raises(signprep.PackError) as caught:
        signprep.pack({"name": "x", "signers": [], "documents": []})
    assert caught.value.findings
    assert any(f["severity"] == "error" for f in caught.value.findings)
    assert caught.value.code == next(
        f["code"] for f in caught.value.findings if f["severity"] == "error"
    )


def test_explain_and_codes_match_the_cli() -> None:
    listed = subprocess.run(
        [cli_binary(), "explain", "--list"], capture_output=True, check=True, text=True
    ).stdout
    codes = signprep.codes()
    assert len(codes) == len(set(codes))
    for code in codes:
        assert code in listed
    doc = signprep.explain("Tag-Id-Not-Uppercase")
    assert doc["code"] == "tag_id_not_uppercase"
    assert doc["severity"] == "error"
    cli = subprocess.run(
        [cli_binary(), "explain", "tag_id_not_uppercase"], capture_output=True, check=True, text=True
    ).stdout
    assert doc["doc"].splitlines()[0] in cli
    with pytest.raises(KeyError):
        signprep.explain("nonsense")
