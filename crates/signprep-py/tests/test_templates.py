"""Templates (.docx, .odt): scan, scan_many and check take them as `signprep scan` and
`signprep check` do, with the same records; without LibreOffice, ConvertFailed.

The tests marked `soffice` need LibreOffice: they fail when it is missing and
SIGNPREP_REQUIRE_SOFFICE=1 (CI), and are skipped otherwise.
"""

from __future__ import annotations

import pathlib
from typing import Any, Dict, List

import pytest

import signprep
from conftest import ROOT, cli_records

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
