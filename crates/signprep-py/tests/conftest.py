"""Shared helpers: the repository's testdata and the CLI the records are compared with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

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
