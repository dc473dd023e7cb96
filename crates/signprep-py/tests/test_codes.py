"""One code per condition: each hostile file through `scan`, `check`, `pack` and
`migrate` gives the code the CLI gives it (crates/signprep-cli/tests/codes.rs),
one test per (file, function)."""

from __future__ import annotations

from typing import Callable, Dict, Optional

import pytest

import signprep

from conftest import HOSTILE

CASES: Dict[str, Optional[str]] = {
    "garbage": "pdf_unreadable",
    "empty": "pdf_unreadable",
    "encrypted_public_key_handler": "pdf_encrypted",
    "truncated_in_catalog": "pdf_unreadable",
    "truncated_half": None,
    "flate_bomb_300mb": "pdf_limit_exceeded",
}
FILE_CODES = {"pdf_unreadable", "pdf_encrypted", "pdf_limit_exceeded", "io_error", "internal_error"}


def scan_code(path: str) -> Optional[str]:
    try:
        signprep.scan(path)
    except signprep.Error as e:
        return e.code
    return None


def check_code(path: str) -> Optional[str]:
    found = [f["code"] for f in signprep.check(path)["findings"] if f["code"] in FILE_CODES]
    assert len(found) <= 1, found
    return found[0] if found else None


def pack_code(path: str) -> Optional[str]:
    manifest = {
        "name": "P",
        "signers": [{"handle": "a", "email": "a@example.com"}],
        "documents": [{"path": path}],
    }
    try:
        signprep.pack(manifest)
    except signprep.PackError as e:
        found = [f["code"] for f in e.findings if f["code"] in FILE_CODES]
        assert found in ([], [e.code]), (found, e.code)
        return found[0] if found else None
    return None


def migrate_code(path: str) -> Optional[str]:
    try:
        signprep.migrate(path)
    except signprep.PackError as e:
        return e.code if e.code in FILE_CODES else None
    return None


FUNCTIONS: Dict[str, Callable[[str], Optional[str]]] = {
    "scan": scan_code,
    "check": check_code,
    "pack": pack_code,
    "migrate": migrate_code,
}


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_same_code_as_the_cli(name: str, function: str) -> None:
    path = str(HOSTILE / f"{name}.pdf")
    assert FUNCTIONS[function](path) == CASES[name], f"{name} through {function}"


def test_every_code_is_explained() -> None:
    for code in FILE_CODES | {"kind_unknown", "page_not_drawn"}:
        assert signprep.explain(code)["code"] == code
    assert code_list_has_no_retired()


def code_list_has_no_retired() -> bool:
    return not {"document_unreadable", "document_not_pdf", "render_unreadable"} & set(signprep.codes())
