"""Shared helpers: the repository's testdata and the CLI the records are compared with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "testdata" / "fixtures"
HOSTILE = ROOT / "testdata" / "hostile"
CHECK = ROOT / "testdata" / "check"
EXAMPLE = ROOT / "testdata" / "example"


def pdfs(folder: Path) -> List[Path]:
    found = sorted(folder.glob("*.pdf"))
    assert found, f"no PDF in {folder}: run from a full checkout"
    return found


def cli_binary() -> str:
    """The `signprep` binary (`SIGNPREP_CLI`, else target/debug/signprep); required, never skipped."""
    path = os.environ.get("SIGNPREP_CLI") or str(ROOT / "target" / "debug" / "signprep")
    assert os.access(path, os.X_OK), (
        f"no signprep binary at {path}: `cargo build -p signprep-cli` or set SIGNPREP_CLI"
    )
    return path


def cli_records(*args: str) -> List[Dict[str, Any]]:
    """The records `signprep ARGS --format ndjson` prints (summary line dropped)."""
    out = subprocess.run(
        [cli_binary(), *args, "--format", "ndjson"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    assert out.returncode in (0, 1, 2), out.stderr.decode()
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    return [r for r in lines if "summary" not in r]


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Records carry paths as given: relative to the checkout, as the CLI is run.
    monkeypatch.chdir(ROOT)


TEMPLATES = ROOT / "testdata" / "templates"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "soffice: needs LibreOffice; fails when it is missing and SIGNPREP_REQUIRE_SOFFICE=1, skips otherwise",
    )


def find_soffice() -> Optional[str]:
    """LibreOffice's program: `SIGNPREP_SOFFICE`, else `soffice` or `libreoffice` on PATH."""
    named = os.environ.get("SIGNPREP_SOFFICE")
    if named:
        return named if os.access(named, os.X_OK) else None
    return shutil.which("soffice") or shutil.which("libreoffice")


@pytest.fixture
def soffice(request: pytest.FixtureRequest) -> str:
    """LibreOffice's program for a test marked `soffice`. Missing, the test fails when
    SIGNPREP_REQUIRE_SOFFICE=1 (CI runs these on purpose) and is skipped otherwise."""
    found = find_soffice()
    if found is None:
        why = "LibreOffice is needed and was not found (install libreoffice-writer-nogui, or set SIGNPREP_SOFFICE)"
        if os.environ.get("SIGNPREP_REQUIRE_SOFFICE") == "1":
            pytest.fail(f"{why}; SIGNPREP_REQUIRE_SOFFICE=1 asks for it", pytrace=False)
        pytest.skip(why)
    return found


@pytest.fixture(autouse=True)
def _soffice_marked(request: pytest.FixtureRequest) -> None:
    # Every test marked `soffice` gets the check, whether or not it asks for the path.
    if request.node.get_closest_marker("soffice") is not None:
        request.getfixturevalue("soffice")
