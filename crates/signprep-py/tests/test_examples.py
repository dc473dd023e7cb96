"""The examples run, and type-check with the stubs under mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.py"))


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


def test_the_readmes_example_is_examples_readme_py() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Python\n") :]
    block = section[section.index("```python\n") + len("```python\n") :]
    block = block[: block.index("```")]
    example = (Path(__file__).parents[1] / "examples" / "readme.py").read_text()
    body = example[example.index('"""\n', 3) + 4 :].lstrip("\n")
    assert block == body
