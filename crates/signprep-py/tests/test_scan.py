"""signprep.scan: the same record as `signprep scan --format ndjson`, errors as exceptions."""

from __future__ import annotations

import errno
import fractions
import io
import pathlib

import pytest

import signprep
from conftest import FIXTURES, HOSTILE, ROOT, cli_records, pdfs


def rel(p: pathlib.Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.mark.parametrize("pdf", pdfs(FIXTURES) + pdfs(HOSTILE), ids=lambda p: p.name)
def test_record_or_error_equals_cli(pdf: pathlib.Path) -> None:
    [expected] = cli_records("scan", rel(pdf))
    if expected["status"] == "ok":
        assert signprep.scan(rel(pdf)) == expected
    else:
        with pytest.raises(signprep.Error) as caught:
            signprep.scan(rel(pdf))
        assert caught.value.code == expected["error"]["code"]
        assert caught.value.message == expected["error"]["message"]
        assert caught.value.path == rel(pdf)


def test_options_are_the_clis() -> None:
    pdf = rel(FIXTURES / "form_geometry.pdf")
    [expected] = cli_records("scan", pdf, "--dpi", "150", "--no-fields", "--ignore-user-unit")
    assert signprep.scan(pdf, dpi=150, fields=False, apply_user_unit=False) == expected
    [expected] = cli_records("scan", pdf, "--page-width", "1000")
    assert signprep.scan(pdf, page_width=1000) == expected


def test_path_like_bytes_and_file_objects_give_the_same_scan() -> None:
    path = FIXTURES / "base14_courier.pdf"
    by_path = signprep.scan(path)
    assert by_path["path"] == str(path)
    data = path.read_bytes()
    by_bytes = signprep.scan(data)
    assert by_bytes["path"] == "-"
    assert {k: v for k, v in by_bytes.items() if k != "path"} == {
        k: v for k, v in by_path.items() if k != "path"
    }
    assert signprep.scan(bytearray(data), name="a.pdf")["path"] == "a.pdf"
    assert signprep.scan(memoryview(data))["tags"] == by_path["tags"]
    with open(path, "rb") as f:
        assert signprep.scan(f) == by_path
    assert signprep.scan(io.BytesIO(data))["tags"] == by_path["tags"]


def test_text_file_objects_and_other_types_are_refused() -> None:
    with pytest.raises(TypeError, match="binary mode"):
        signprep.scan(io.StringIO("%PDF-1.7"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not int"):
        signprep.scan(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "cls", "code"),
    [
        ("garbage.pdf", signprep.PdfUnreadable, "pdf_unreadable"),
        ("encrypted_public_key_handler.pdf", signprep.PdfEncrypted, "pdf_encrypted"),
        ("flate_bomb_300mb.pdf", signprep.LimitExceeded, "pdf_limit_exceeded"),
    ],
)
def test_errors_are_typed_and_carry_the_code(name: str, cls: type, code: str) -> None:
    with pytest.raises(cls) as caught:
        signprep.scan(HOSTILE / name)
    assert isinstance(caught.value, signprep.Error)
    assert caught.value.code == code
    assert signprep.explain(code)["code"] == code


def test_missing_file_is_an_io_error() -> None:
    with pytest.raises(signprep.IoError) as caught:
        signprep.scan("no/such/file.pdf")
    assert caught.value.code == "io_error"
    assert caught.value.path == "no/such/file.pdf"


def test_io_error_is_an_os_error() -> None:
    # Caught as open()'s errors are, with the path and the system's error number.
    with pytest.raises(OSError) as caught:
        signprep.scan("no/such/file.pdf")
    e = caught.value
    assert isinstance(e, signprep.IoError) and isinstance(e, signprep.Error)
    assert e.errno == errno.ENOENT
    assert e.filename == "no/such/file.pdf"
    assert str(e).startswith("no/such/file.pdf: ") and str(e).endswith("[io_error]")
    # The pure-Python reader (check of a path) says the same.
    with pytest.raises(OSError) as caught:
        signprep.check("no/such/body.json")
    assert caught.value.errno == errno.ENOENT
    assert isinstance(caught.value, signprep.IoError)


def test_bad_options_are_value_errors() -> None:
    pdf = FIXTURES / "base14_courier.pdf"
    with pytest.raises(ValueError, match="dpi"):
        signprep.scan(pdf, dpi=0)
    with pytest.raises(ValueError, match="page_width"):
        signprep.scan(pdf, page_width=-1)
    # Values that would make coordinates infinite are refused with their range.
    with pytest.raises(ValueError, match="dpi: 1e308 dpi is out of range: the resolution is from 1 to 10000 dpi"):
        signprep.scan(pdf, dpi=1e308)
    with pytest.raises(ValueError, match="page_width: .* from 1 to 100000 px"):
        signprep.scan(pdf, page_width=float("inf"))
    with pytest.raises(ValueError, match="unknown dialect"):
        signprep.scan(pdf, dialects=["nonsense"])
    # DocuSign has no text tags: the way out in this package's words.
    with pytest.raises(ValueError, match=r"give its tabs with anchors=FILE .* or anchor="):
        signprep.scan(pdf, dialects=["adobe", "docusign"])


def test_dialects_as_a_list_or_a_string() -> None:
    pdf = rel(FIXTURES / "base14_courier.pdf")
    [expected] = cli_records("scan", pdf, "--dialect", "adobe,dropbox")
    assert signprep.scan(pdf, dialects=["adobe", "dropbox"]) == expected
    assert signprep.scan(pdf, dialects="adobe,dropbox") == expected


def test_data_fields_and_type_map_are_the_clis() -> None:
    pdf = rel(FIXTURES / "form_geometry.pdf")
    [plain] = cli_records("scan", pdf, "--data-fields")
    assert plain["data_fields"], "the fixture has fields: data_fields is not empty"
    assert signprep.scan(pdf, data_fields=True) == plain
    assert "data_fields" not in signprep.scan(pdf)
    # A type_map implies data_fields; a mapping or NAME=TYPE strings, None leaves out.
    first = plain["data_fields"][0]["custom_id"]
    [mapped] = cli_records(
        "scan", pdf, "--data-fields", "--type-map", f"{first}=initials", "--type-map", "*[[]*=none"
    )
    assert mapped != plain
    assert signprep.scan(pdf, type_map={first: "initials", "*[[]*": None}) == mapped
    assert signprep.scan(pdf, type_map=[f"{first}=initials", "*[[]*=none"]) == mapped
    [left_out] = cli_records("scan", pdf, "--data-fields", "--type-map", "*=none")
    assert left_out["data_fields"] == []
    assert signprep.scan(pdf, type_map={"*": None})["data_fields"] == []


def test_bad_type_maps_are_refused() -> None:
    pdf = FIXTURES / "form_geometry.pdf"
    with pytest.raises(ValueError, match="type_map"):
        signprep.scan(pdf, type_map={"SIG_*": "Signature!"})
    with pytest.raises(ValueError, match="type_map"):
        signprep.scan(pdf, type_map=["no equals sign"])
    with pytest.raises(TypeError, match="not a str"):
        signprep.scan(pdf, type_map="SIG_*=signature")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        # Not a number where one is wanted: never coerced (True would be 1 dpi).
        ({"dpi": "96"}, TypeError, "dpi: expected a number, not str '96'"),
        ({"dpi": True}, TypeError, "dpi: expected a number, not bool True"),
        ({"page_width": True}, TypeError, "page_width: expected a number, not bool True"),
        ({"timeout": "5"}, TypeError, "timeout: expected a number, not str '5'"),
        ({"max_file_size": True}, TypeError, "max_file_size: expected a whole number of bytes, not bool True"),
        ({"max_file_size": 1.5}, TypeError, "max_file_size: expected a whole number of bytes, not float 1.5"),
        ({"fields": "no"}, TypeError, "fields: expected True or False, not str 'no'"),
        ({"apply_user_unit": 0}, TypeError, "apply_user_unit: expected True or False, not int 0"),
        ({"dialects": 5}, TypeError, "dialects: expected a string"),
        ({"dialects": ["adobe", 5]}, TypeError, "dialects: expected names"),
        # Numbers that make no sense: named, with what is taken.
        ({"timeout": -1}, ValueError, r"timeout: -1 is not a number of seconds 0 or more \(0: no limit\)"),
        ({"timeout": float("nan")}, ValueError, "timeout: nan is not a number of seconds"),
        ({"timeout": 1e300}, ValueError, "timeout: 1e[+]300 s is longer than signprep can wait"),
        ({"max_file_size": -5}, ValueError, "max_file_size: -5 is below 0"),
        ({"convert_timeout": 0}, ValueError, "convert_timeout: 0 is not a number of seconds above 0"),
    ],
)
def test_arguments_that_make_no_sense_are_named(options: dict, error: type, message: str) -> None:
    pdf = FIXTURES / "base14_courier.pdf"
    with pytest.raises(error, match=message):
        signprep.scan(pdf, **options)
    # scan_many refuses them before it reads a source.
    with pytest.raises(error, match=message):
        signprep.scan_many([pdf], **options)


def test_numbers_of_other_types_are_taken() -> None:
    pdf = FIXTURES / "base14_courier.pdf"
    whole = signprep.scan(pdf, dpi=96.0, timeout=60.0)
    assert signprep.scan(pdf, dpi=96, timeout=60) == whole
    assert signprep.scan(pdf, dpi=fractions.Fraction(96), timeout=60) == whole


def test_thread_counts_past_the_bound_are_refused() -> None:
    pdf = FIXTURES / "base14_courier.pdf"
    # 20000 threads on two cores used to spin for minutes before the first record.
    with pytest.raises(ValueError, match="jobs: 20000 is more than 1024 threads"):
        signprep.scan_many([pdf], jobs=20000)
    with pytest.raises(TypeError, match="jobs: expected a whole number of threads, not float 2.0"):
        signprep.scan_many([pdf], jobs=2.0)
