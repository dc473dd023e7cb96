"""The examples run, and type-check with the stubs under mypy --strict."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from conftest import ROOT

EXAMPLES_DIR = Path(__file__).parents[1] / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(example: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(example)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip(), "an example prints what it found"


def test_examples_type_check_strictly() -> None:
    assert len(EXAMPLES) >= 2
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, EXAMPLES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout


def python_blocks() -> List[Tuple[str, str]]:
    """Every ```python block of the README and the guide (docs/src/**/*.md): (page, body)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs" / "src").rglob("*.md"))]
    out = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for part in text.split("```python\n")[1:]:
            out.append((str(page.relative_to(ROOT)), part[: part.index("```")]))
    return out


INCLUDE = re.compile(r"^\{\{#include ([^:}]+)(?::[^}]*)?\}\}\n$")


def test_the_readmes_example_is_examples_readme_py() -> None:
    """The example the README or the guide shows is examples/readme.py, which the test above
    runs: shown verbatim (the body after its docstring) or by an mdBook include; and every
    include of a Python file names a file of examples/, which exists."""
    example = EXAMPLES_DIR / "readme.py"
    body = example.read_text()[example.read_text().index('"""\n', 3) + 4 :].lstrip("\n")
    shown = []
    for page, block in python_blocks():
        m = INCLUDE.match(block)
        if m is None:
            if block == body:
                shown.append(page)
            continue
        target = ((ROOT / page).parent / m.group(1)).resolve()
        assert target.is_file(), f"{page}: {{{{#include {m.group(1)}}}}} names no file"
        assert target.parent == EXAMPLES_DIR.resolve(), (
            f"{page}: {m.group(1)} is not one of crates/signprep-py/examples/ (which tests run)"
        )
        if target == example.resolve():
            shown.append(page)
    assert shown, "neither the README nor a page of docs/src shows examples/readme.py"
