"""Templates (.docx, .odt): scan, scan_many, check, pack (a manifest's children) and
migrate take them as the CLI's commands do, with the same records and bodies; without
LibreOffice, ConvertFailed.

The tests marked `soffice` need LibreOffice: they fail when it is missing and
SIGNPREP_REQUIRE_SOFFICE=1 (CI), and are skipped otherwise.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any, Dict, List

import pytest

import signprep
from conftest import ROOT, cli_binary, cli_records

FILES = [
    "testdata/templates/docx_places.docx",
    "testdata/templates/docx_format_change.docx",
    "testdata/templates/odt_clean_one_page.odt",
]
PDF = "testdata/fixtures/base14_courier.pdf"


def without_values(findings: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    # The CLI adds the value each pointer names; the package leaves that to the caller.
    return [{k: v for k, v in f.items() if k != "value"} for f in findings]


def test_a_missing_libreoffice_raises_convert_failed_with_the_install_hint(tmp_path: pathlib.Path) -> None:
    missing = str(tmp_path / "soffice")
    with pytest.raises(signprep.ConvertFailed) as caught:
        signprep.scan(FILES[0], soffice=missing)
    e = caught.value
    assert isinstance(e, signprep.Error)
    assert e.code == "convert_failed"
    assert e.path == FILES[0]
    assert e.message.startswith(f"cannot run LibreOffice at {missing}: no such program: install it")
    assert "apt-get install libreoffice-writer-nogui" in e.message
    assert e.message.endswith("or pass soffice=PATH naming its `soffice` program")
    # Bytes are told by their content.
    with pytest.raises(signprep.ConvertFailed):
        signprep.scan((ROOT / FILES[2]).read_bytes(), soffice=missing)
    with pytest.raises(signprep.ConvertFailed) as caught:
        signprep.check(FILES[0], soffice=missing)
    assert caught.value.code == "convert_failed"
    assert caught.value.path == FILES[0]
    with pytest.raises(signprep.ConvertFailed):
        signprep.check((ROOT / FILES[0]).read_bytes(), soffice=missing)
    # scan_many gives the record in its place and goes on.
    records = list(signprep.scan_many([FILES[0], PDF], soffice=missing))
    assert [r["status"] for r in records] == ["error", "ok"]
    assert records[0]["path"] == FILES[0]
    assert records[0]["error"]["code"] == "convert_failed"
    assert records[0]["error"]["message"] == e.message


def test_pdfs_need_no_libreoffice(tmp_path: pathlib.Path) -> None:
    missing = str(tmp_path / "soffice")
    [expected] = cli_records("scan", PDF)
    assert signprep.scan(PDF, soffice=missing) == expected
    assert signprep.scan((ROOT / PDF).read_bytes(), name=PDF, soffice=missing) == expected
    assert signprep.check(PDF, soffice=missing)["kind"] == "pdf"


def test_a_template_that_cannot_be_read_is_an_io_error() -> None:
    with pytest.raises(signprep.IoError) as caught:
        signprep.scan("testdata/templates/no_such.docx", soffice="/nonexistent/soffice")
    assert caught.value.code == "io_error"


def test_convert_options_are_checked() -> None:
    with pytest.raises(TypeError, match="cache_dir"):
        signprep.scan(PDF, cache_dir=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="convert_timeout"):
        signprep.scan(PDF, convert_timeout=0)


@pytest.mark.soffice
def test_scan_records_equal_the_clis(soffice: str, tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    # The CLI converts into the cache, where the package finds the same PDFs (a
    # conversion's PDF carries its time: two differ in their bytes' hash).
    expected = cli_records("scan", "--soffice", soffice, "--cache-dir", str(cache), *FILES)
    assert [r["status"] for r in expected] == ["ok"] * len(FILES)
    for path, want in zip(FILES, expected):
        assert want["converted"]["format"] == path.rsplit(".", 1)[1]
        assert signprep.scan(path, soffice=soffice, cache_dir=cache) == want
        data = (ROOT / path).read_bytes()
        assert signprep.scan(data, name=path, soffice=soffice, cache_dir=cache) == want
    [pdf] = cli_records("scan", PDF)
    got = list(
        signprep.scan_many([FILES[0], PDF, FILES[2]], soffice=soffice, cache_dir=cache, jobs=2)
    )
    assert got == [expected[0], pdf, expected[2]]


@pytest.mark.soffice
def test_scan_many_converts_a_lists_templates_ahead(soffice: str, tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    options = signprep._options(72, None, True, True, (), 60, None, soffice=soffice, cache_dir=cache)
    # Three templates and a PDF: the three converted in one go, into the cache.
    assert signprep._native.prepare_templates([*FILES, PDF], options) == len(FILES)
    assert len(list(cache.rglob("*.pdf"))) == len(FILES)
    # Already there: nothing left to convert.
    assert signprep._native.prepare_templates([*FILES, PDF], options) == 0
    # scan_many of a list prepares the same way, and its records are the CLI's.
    expected = cli_records("scan", "--soffice", soffice, "--cache-dir", str(cache), *FILES, PDF)
    fresh = tmp_path / "fresh"
    got = list(signprep.scan_many([*FILES, PDF], soffice=soffice, cache_dir=fresh, jobs=2))
    assert len(list(fresh.rglob("*.pdf"))) == len(FILES)

    def same(r: Dict[str, Any]) -> Dict[str, Any]:
        # A conversion's PDF carries its time: two conversions differ in their hash.
        if "converted" not in r:
            return r
        return {**r, "converted": {k: v for k, v in r["converted"].items() if k != "pdf_sha256"}}

    assert [same(r) for r in got] == [same(r) for r in expected]
    # Without a cache, nothing is converted ahead (each in its turn, as before).
    no_cache = signprep._options(72, None, True, True, (), 60, None, soffice=soffice, cache_dir=False)
    assert signprep._native.prepare_templates(FILES, no_cache) == 0


@pytest.mark.soffice
def test_a_template_converted_here_scans_as_the_clis(soffice: str) -> None:
    # No cache: LibreOffice runs in this process.
    [want] = cli_records("scan", "--soffice", soffice, "--no-cache", FILES[0])
    got = signprep.scan(FILES[0], soffice=soffice, cache_dir=False)

    def same(r: Dict[str, Any]) -> Dict[str, Any]:
        return {**r, "converted": {k: v for k, v in r["converted"].items() if k != "pdf_sha256"}}

    assert same(got) == same(want)
    assert [t["source"] for t in got["tags"]] == [t["source"] for t in want["tags"]]


@pytest.mark.soffice
def test_check_findings_equal_the_clis(soffice: str, tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    for path in FILES:
        [want] = cli_records("check", "--soffice", soffice, "--cache-dir", str(cache), path)
        got = signprep.check(path, soffice=soffice, cache_dir=cache)
        assert got["path"] == path
        assert got["kind"] == want["kind"] == "pdf"
        assert got["findings"] == without_values(want["findings"])
    # The template's own findings first, each with its place in the template.
    got = signprep.check(FILES[1], soffice=soffice, cache_dir=cache)
    first = got["findings"][0]
    assert first["code"].startswith("template_"), got
    assert set(first["source"]) >= {"part", "paragraph", "snippet"}


# pack and migrate of templates: a manifest's .docx/.odt children, a template migrated.

PACK_TEMPLATES = ["docx_clean_one_page.docx", "odt_clean_one_page.odt"]
PACK_MANIFEST = """name = "Templates"

[[signers]]
handle = "client"
name = "Ann Client"
email = "ann@example.com"
uuid = "3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11"

[[fields]]
match = "*_1"
signer = "client"

[[documents]]
path = "docx_clean_one_page.docx"

[[documents]]
path = "odt_clean_one_page.odt"
"""
VENDOR = "testdata/templates/docx_vendor_dropbox.docx"
SIGNERS = {"signer1": "client@example.com"}


def manifest_in(folder: pathlib.Path) -> pathlib.Path:
    """The manifest of two templates, written into ``folder`` with them."""
    for name in PACK_TEMPLATES:
        (folder / name).write_bytes((ROOT / "testdata" / "templates" / name).read_bytes())
    manifest = folder / "pack.toml"
    manifest.write_text(PACK_MANIFEST)
    return manifest


def run_cli(*args: str) -> bytes:
    out = subprocess.run([cli_binary(), *args], cwd=ROOT, capture_output=True, check=False)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout


def test_pack_and_migrate_of_a_template_without_libreoffice_raise_convert_failed(
    tmp_path: pathlib.Path,
) -> None:
    missing = str(tmp_path / "soffice")
    manifest = manifest_in(tmp_path)
    with pytest.raises(signprep.ConvertFailed) as caught:
        signprep.pack(manifest, soffice=missing)
    e = caught.value
    assert e.code == "convert_failed"
    assert e.path == str(manifest)
    assert e.message.startswith(f"cannot run LibreOffice at {missing}: no such program: install it")
    assert e.message.endswith("or pass soffice=PATH naming its `soffice` program")
    # A manifest naming no template needs no LibreOffice.
    example = ROOT / "testdata" / "example" / "pack.toml"
    assert signprep.pack(example, soffice=missing) == signprep.pack(example)
    # migrate: a path by its extension, bytes by their content.
    with pytest.raises(signprep.ConvertFailed) as caught:
        signprep.migrate(VENDOR, signers=SIGNERS, soffice=missing)
    assert caught.value.path == VENDOR
    assert caught.value.message == e.message
    with pytest.raises(signprep.ConvertFailed):
        signprep.migrate((ROOT / VENDOR).read_bytes(), signers=SIGNERS, soffice=missing)
    # PDFs as ever: no `pdf` to upload but the file given.
    pdf = signprep.migrate("testdata/migrate/dropbox_contract.pdf", signers=SIGNERS, soffice=missing)
    assert pdf["pdf"] is None
    assert pdf["request"]["requests"][0]["upload"].endswith("dropbox_contract.pdf")


@pytest.mark.soffice
def test_pack_of_a_manifest_naming_templates_equals_the_clis(soffice: str, tmp_path: pathlib.Path) -> None:
    manifest = manifest_in(tmp_path)
    cache = tmp_path / "cache"
    # The CLI converts into the cache, where the package finds the same PDFs.
    want = json.loads(run_cli("pack", "--soffice", soffice, "--cache-dir", str(cache), str(manifest)))
    got = signprep.pack(manifest, soffice=soffice, cache_dir=cache)
    assert got == want
    assert [d["document_name"] for d in got["documents"]] == ["docx_clean_one_page", "odt_clean_one_page"]
    assert all(d["data_fields"] for d in got["documents"]), "the templates' tags are fields"
    # A template LibreOffice refuses is that child's finding: nothing built.
    (tmp_path / "docx_clean_one_page.docx").write_bytes(
        (ROOT / "testdata" / "templates" / "docx_truncated.docx").read_bytes()
    )
    with pytest.raises(signprep.PackError) as caught:
        signprep.pack(manifest, soffice=soffice, cache_dir=cache)
    assert caught.value.code == "convert_failed"
    [failed] = [f for f in caught.value.findings if f["code"] == "convert_failed"]
    assert failed["pointer"] == "/documents/0"


@pytest.mark.soffice
def test_migrate_of_a_template_equals_the_clis(soffice: str, tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    signer = [f"--signer={k}={v}" for k, v in SIGNERS.items()]
    convert = ["--soffice", soffice, "--cache-dir", str(cache), "--quiet"]
    for strip in (False, True):
        out = tmp_path / f"out-{strip}"
        flags = ["--strip"] if strip else []
        run_cli("migrate", VENDOR, "--out", str(out), *convert, *signer, *flags)
        want = json.loads((out / "docx_vendor_dropbox.json").read_text())
        uploaded = (out / "docx_vendor_dropbox.pdf").read_bytes()
        got = signprep.migrate(VENDOR, signers=SIGNERS, soffice=soffice, cache_dir=cache, strip=strip)
        # The same request, but that it uploads the bytes returned, not a file written.
        [request] = got["request"]["requests"]
        assert "upload" not in request
        assert want["requests"][0].pop("upload") == "docx_vendor_dropbox.pdf"
        assert got["request"] == want
        assert got["pdf"] == uploaded
        assert got["summary"]["placed"] == 1
        # Bytes are told by their content; the name as for a path.
        data = (ROOT / VENDOR).read_bytes()
        by_bytes = signprep.migrate(
            data, name=VENDOR, signers=SIGNERS, soffice=soffice, cache_dir=cache, strip=strip
        )
        assert by_bytes == got
    # A finding about a tag names its place in the template.
    got = signprep.migrate(VENDOR, signers=SIGNERS, soffice=soffice, cache_dir=cache)
    visible = [f for f in got["findings"] if f["code"] == "vendor_tag_visible"]
    assert visible and set(visible[0]["source"]) >= {"part", "paragraph", "snippet"}, got["findings"]
    # A template LibreOffice refuses: ConvertFailed, as for scan.
    with pytest.raises(signprep.ConvertFailed):
        signprep.migrate("testdata/templates/docx_truncated.docx", soffice=soffice, cache_dir=cache)
