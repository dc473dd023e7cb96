"""The GIL is released while a PDF is scanned: two threads' scans overlap in time."""

from __future__ import annotations

import threading
from typing import List, Tuple

import signprep
from signprep import _native
from conftest import FIXTURES

# The largest fixture: long enough a scan for the other thread to start meanwhile.
PDF = str(max(FIXTURES.glob("*.pdf"), key=lambda p: p.stat().st_size))


def test_two_threads_scan_at_the_same_time() -> None:
    # Each scan records, inside Rust with the GIL released, when it began and
    # ended. Were the GIL held, a second thread could not enter its scan before
    # the first left, and no two intervals would ever overlap. The threads start
    # together (a barrier) and repeat, so the test does not hang on one round's
    # scheduling; it needs one overlap, and asserts nothing about durations.
    options = _native.Options(
        dpi=72.0, page_width=None, fields=True, apply_user_unit=True, dialects="",
        timeout=None, max_file_size=None,
    )
    rounds = 50
    barrier = threading.Barrier(2)
    spans: List[List[Tuple[int, int]]] = [[], []]

    def work(i: int) -> None:
        for _ in range(rounds):
            barrier.wait()
            start, end, record = _native._scan_timed(PDF, PDF, options)
            assert record["status"] == "ok"
            spans[i].append((start, end))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(spans[0]) == len(spans[1]) == rounds
    overlapping = sum(
        1 for (a0, a1), (b0, b1) in zip(spans[0], spans[1]) if max(a0, b0) < min(a1, b1)
    )
    assert overlapping > 0, f"no two scans overlapped in {rounds} rounds: the GIL is held"


def test_the_public_scan_gives_the_timed_record() -> None:
    options = _native.Options(
        dpi=72.0, page_width=None, fields=True, apply_user_unit=True, dialects="",
        timeout=None, max_file_size=None,
    )
    assert _native._scan_timed(PDF, PDF, options)[2] == signprep.scan(PDF)
