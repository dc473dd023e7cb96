"""signprep.migrate: other vendors' tags to this service's v0 request, as `signprep migrate`."""

from __future__ import annotations

import json
import subprocess
from typing import Any, Dict

import pytest

import signprep
from conftest import FIXTURES, ROOT, cli_binary

MIGRATE = ROOT / "testdata" / "migrate"
SIGNERS = {"signer1": "client@example.com", "signer2": "Wendy Ward <wendy@example.com>"}


def cli_request(pdf: str) -> Dict[str, Any]:
    out = subprocess.run(
        [cli_binary(), "migrate", pdf, "--quiet"]
        + [a for k, v in SIGNERS.items() for a in ("--signer", f"{k}={v}")],
        cwd=MIGRATE,
        capture_output=True,
        check=True,
    )
    request: Dict[str, Any] = json.loads(out.stdout)
    return request


@pytest.mark.parametrize("pdf", ["adobe_contract.pdf", "dropbox_contract.pdf"])
def test_request_equals_the_clis_and_checks_clean(pdf: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MIGRATE)
    result = signprep.migrate(pdf, signers=SIGNERS)
    assert result["request"] == cli_request(pdf)
    summary = result["summary"]
    assert summary["placed"] > 0 and summary["signers"] == 2
    assert summary["tags"] == summary["placed"] + summary["left_out"]
    assert all(f["severity"] != "error" for f in result["findings"])
    # The same rules as any other body: clean.
    checked = signprep.check(json.dumps(result["request"]).encode(), kind="requests")
    assert [f for f in checked["findings"] if f["severity"] == "error"] == []


def test_bytes_and_options() -> None:
    data = (MIGRATE / "adobe_contract.pdf").read_bytes()
    by_bytes = signprep.migrate(data, signers=SIGNERS, name="contract.pdf")
    by_path = signprep.migrate(MIGRATE / "adobe_contract.pdf", signers=SIGNERS)
    assert by_bytes["summary"] == by_path["summary"]
    doubled = signprep.migrate(data, signers=SIGNERS, dpi=144)

    def first(r: Dict[str, Any]) -> Dict[str, Any]:
        field: Dict[str, Any] = r["request"]["requests"][0]["body"]["data_fields"][0]
        return field

    assert first(doubled)["x"] == pytest.approx(2 * first(by_bytes)["x"], abs=0.02)  # rounded to 0.01
    # Only the Dropbox dialect: the Adobe contract has no tag of it, so nothing to migrate.
    with pytest.raises(signprep.PackError) as caught:
        signprep.migrate(data, signers=SIGNERS, dialects=["dropbox"])
    assert caught.value.code == "migrate_no_fields"


def test_unmapped_signer_is_defaulted_with_a_finding() -> None:
    result = signprep.migrate(MIGRATE / "adobe_contract.pdf", signers={"signer1": "a@example.com"})
    unmapped = [f for f in result["findings"] if f["code"] == "migrate_signer_unmapped"]
    assert len(unmapped) == 1 and unmapped[0]["severity"] == "warning", result["findings"]
    assert result["summary"]["signers_without_email"] == 1


def test_unreadable_and_missing_inputs() -> None:
    with pytest.raises(signprep.PackError) as caught:
        signprep.migrate(b"%PDF-1.7 not really", signers=SIGNERS)
    assert caught.value.code == "pdf_unreadable"
    assert caught.value.findings and caught.value.findings[0]["code"] == "pdf_unreadable"
    with pytest.raises(signprep.IoError):
        signprep.migrate("no/such.pdf", signers=SIGNERS)
    with pytest.raises(signprep.IoError):
        signprep.migrate(MIGRATE / "adobe_contract.pdf", signers_file="no/such.toml")
    with pytest.raises(ValueError, match="signers"):
        signprep.migrate(MIGRATE / "adobe_contract.pdf", signers={"signer1": ""})
    with pytest.raises(ValueError, match="map_type"):
        signprep.migrate(MIGRATE / "adobe_contract.pdf", signers=SIGNERS, map_type={"date": "Date!"})


def test_a_pdf_without_vendor_tags_has_nothing_to_migrate() -> None:
    with pytest.raises(signprep.PackError) as caught:
        signprep.migrate(FIXTURES / "base14_courier.pdf", signers=SIGNERS)
    assert [f["code"] for f in caught.value.findings] == ["migrate_no_fields"]
    assert caught.value.code == "migrate_no_fields"


def test_signer_map_mistakes_are_errors(tmp_path: Any) -> None:
    pdf = MIGRATE / "dropbox_contract.pdf"
    # An address that `check` would reject (one word is an address, never a name).
    for value in ("not-an-email", "wendy@example", "Wendy <wendy@example>"):
        with pytest.raises(signprep.PackError) as caught:
            signprep.migrate(pdf, signers={"signer1": "client@example.com", "signer2": value})
        assert caught.value.code == "email_invalid", value
        assert [f["code"] for f in caught.value.findings if f["severity"] == "error"] == ["email_invalid"]
    # A signer the PDF does not have: the closest one is suggested.
    with pytest.raises(signprep.PackError) as caught:
        signprep.migrate(pdf, signers={**SIGNERS, "signer9": "c@example.com"})
    assert caught.value.code == "migrate_signer_unknown"
    unknown = [f for f in caught.value.findings if f["code"] == "migrate_signer_unknown"]
    assert len(unknown) == 1 and "`signer9`" in unknown[0]["message"]
    assert unknown[0]["hint"].startswith("did you mean `signer1`?"), unknown[0]["hint"]
    # The same rule for a signer file.
    signers_file = tmp_path / "signers.toml"
    signers_file.write_text('[[signers]]\nhandle = "signer1"\nemail = "wendy@example"\n')
    with pytest.raises(signprep.PackError) as caught:
        signprep.migrate(pdf, signers_file=signers_file)
    assert caught.value.code == "email_invalid"
    # A name with a space is a name with no address, as before: a warning only.
    result = signprep.migrate(pdf, signers={"signer1": "client@example.com", "signer2": "Wendy Ward"})
    second = result["request"]["requests"][0]["body"]["signatories"][1]
    assert second["name"] == "Wendy Ward" and "email" not in second
    assert result["summary"]["signers_without_email"] == 1


def test_upload_is_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MIGRATE)
    result = signprep.migrate("dropbox_contract.pdf", signers=SIGNERS)
    upload = result["request"]["requests"][0]["upload"]
    assert upload == str(MIGRATE.resolve() / "dropbox_contract.pdf")


def test_docusign_anchors_equal_the_clis(monkeypatch: pytest.MonkeyPatch) -> None:
    """`anchors=` reads DocuSign's envelope JSON as `--anchors` does: same request, recipients as signers."""
    monkeypatch.chdir(FIXTURES)
    envelope = "vendor_docusign.envelope.json"
    result = signprep.migrate("vendor_docusign.pdf", anchors=envelope)
    out = subprocess.run(
        [cli_binary(), "migrate", "vendor_docusign.pdf", "--quiet", "--anchors", envelope],
        cwd=FIXTURES,
        capture_output=True,
        check=True,
    )
    assert result["request"] == json.loads(out.stdout)
    emails = [s["email"] for s in result["request"]["requests"][0]["body"]["signatories"]]
    assert emails == ["bea@example.com", "sam@example.com", "ina@example.com"]
    missing = [f["tag"] for f in result["findings"] if f["code"] == "vendor_anchor_not_found"]
    assert missing == ["/missing/"]


def test_docusign_anchor_arguments_in_scan() -> None:
    record = signprep.scan(FIXTURES / "vendor_docusign.pdf", anchor=["/sn1/=signHere:1"], fields=False)
    tags = record["vendor_tags"]
    assert [(t["dialect"], t["raw"], t["page"]) for t in tags] == [
        ("docusign", "/sn1/", 0),
        ("docusign", "/sn1/", 1),
    ]
    assert all("field" in t for t in tags)
    with pytest.raises(ValueError, match="STRING=TYPE"):
        signprep.scan(FIXTURES / "vendor_docusign.pdf", anchor=["/sn1/=bogus"])


def test_hints_name_the_keyword_arguments_not_the_clis_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MIGRATE)
    result = signprep.migrate("dropbox_contract.pdf")
    hints = [f["hint"] for f in result["findings"] if f["code"] == "migrate_signer_unmapped"]
    assert hints and all('`signers={"signer' in h for h in hints), hints
    assert not [f for f in result["findings"] if "`--" in f.get("hint", "")], result["findings"]
