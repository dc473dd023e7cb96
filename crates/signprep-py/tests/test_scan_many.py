"""scan_many: records in input order on the batch engine, lazily, one error record per bad file."""

from __future__ import annotations

import itertools
import pathlib
from typing import Iterator, List

import pytest

import signprep
from conftest import FIXTURES, HOSTILE, ROOT, cli_records, pdfs


def rel(p: pathlib.Path) -> str:
    return str(p.relative_to(ROOT))


def test_records_equal_the_clis_in_input_order() -> None:
    # Fixtures and hostile files interleaved (largest-first scheduling must not
    # show), each twice: the CLI scans the same list in the same order.
    files = [rel(p) for p in pdfs(HOSTILE) + pdfs(FIXTURES)]
    files = [f for pair in zip(files, reversed(files)) for f in pair]
    expected = cli_records("scan", "--jobs", "2", *files)
    assert len(expected) == len(files)
    got = list(signprep.scan_many(files, jobs=2))
    assert [r["path"] for r in got] == files
    assert got == expected
    assert any(r["status"] == "error" for r in got), "the hostile files give error records"


@pytest.mark.parametrize(("jobs", "window"), [(2, None), (2, 4), (3, 1)])
def test_output_is_the_same_whatever_the_jobs_and_window(jobs: int, window: int) -> None:
    files = pdfs(FIXTURES) + pdfs(HOSTILE)
    one = list(signprep.scan_many(files, jobs=1))
    assert len(one) == len(files)
    assert list(signprep.scan_many(files, jobs=jobs, window=window)) == one


def test_one_error_record_per_bad_source_and_no_exception() -> None:
    sources: List[signprep.Source] = [
        "no/such/file.pdf",
        b"not a PDF",
        HOSTILE / "encrypted_public_key_handler.pdf",
        FIXTURES / "base14_courier.pdf",
    ]
    got = list(signprep.scan_many(sources))
    assert [r["status"] for r in got] == ["error", "error", "error", "ok"]
    assert [r["error"]["code"] for r in got[:3]] == ["io_error", "pdf_unreadable", "pdf_encrypted"]
    assert [r["path"] for r in got] == [
        "no/such/file.pdf",
        "-",
        str(HOSTILE / "encrypted_public_key_handler.pdf"),
        str(FIXTURES / "base14_courier.pdf"),
    ]


def test_sources_are_read_only_as_far_as_the_window() -> None:
    pulled = 0
    total = 10_000
    pdf = str(FIXTURES / "base14_courier.pdf")

    def sources() -> Iterator[str]:
        nonlocal pulled
        for _ in range(total):
            pulled += 1
            yield pdf

    window = 4
    it = signprep.scan_many(sources(), jobs=1, window=window)
    assert pulled == 0 or pulled <= window + 16 + 2, "nothing much read before the first next()"
    first = next(it)
    assert first["status"] == "ok"
    # The engine's window, the 16 records handed to the iterator, one in hand.
    assert pulled <= window + 16 + 2, f"read {pulled} sources ahead for a window of {window}"
    rest = list(itertools.islice(it, 50))
    assert len(rest) == 50
    assert pulled <= 51 + window + 16 + 2
    del it  # stops the run; the remaining sources are never read
    assert pulled < total


def test_an_exception_from_the_sources_comes_after_the_records_before_it() -> None:
    pdf = str(FIXTURES / "base14_courier.pdf")

    def sources() -> Iterator[signprep.Source]:
        yield pdf
        yield pdf
        raise RuntimeError("listing failed")

    it = signprep.scan_many(sources())
    assert next(it)["path"] == pdf
    assert next(it)["path"] == pdf
    with pytest.raises(RuntimeError, match="listing failed"):
        next(it)


def test_a_bad_source_type_raises_typeerror_in_its_place() -> None:
    it = signprep.scan_many([str(FIXTURES / "base14_courier.pdf"), 42])  # type: ignore[list-item]
    assert next(it)["status"] == "ok"
    with pytest.raises(TypeError):
        next(it)


def test_bytes_and_file_objects() -> None:
    path = FIXTURES / "form_choices.pdf"
    with open(path, "rb") as f:
        got = list(signprep.scan_many([path.read_bytes(), f]))
    assert got[0]["path"] == "-"
    assert got[1]["path"] == str(path)
    assert got[0]["fields"] == got[1]["fields"] == signprep.scan(path)["fields"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="jobs"):
        signprep.scan_many([], jobs=0)
    with pytest.raises(ValueError, match="window"):
        signprep.scan_many([], window=0)
    assert list(signprep.scan_many([])) == []


def test_data_fields_in_batch_equal_the_clis() -> None:
    paths = [str(p.relative_to(ROOT)) for p in pdfs(FIXTURES)]
    expected = cli_records("scan", *paths, "--data-fields", "--type-map", "*SIG*=signature")
    got = list(signprep.scan_many(paths, jobs=2, type_map={"*SIG*": "signature"}))
    assert [r["path"] for r in got] == paths
    for e, g in zip(expected, got):
        assert g == e, e["path"]
