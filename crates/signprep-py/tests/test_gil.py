"""The GIL is released while a PDF is scanned: two threads' scans overlap in time."""

from __future__ import annotations

import threading
from typing import List, Tuple

import pytest

import signprep
from signprep import _native
from conftest import HOSTILE

# A long scan (inflating up to the stream limit, then refused): long enough for
# the other thread to wake up and start its own meanwhile.
PDF = str(HOSTILE / "flate_bomb_300mb.pdf")


def test_two_threads_scan_at_the_same_time() -> None:
    # Each scan records, inside Rust with the GIL released, when it began and
    # ended. Were the GIL held, a second thread could not enter its scan before
    # the first left, and no two intervals would ever overlap. The threads start
    # together (a barrier) and repeat until one round overlaps (at most 20
    # rounds), so one round's scheduling does not decide; nothing about
    # durations is asserted.
    options = _native.Options(
        dpi=72.0, page_width=None, fields=True, apply_user_unit=True, dialects="",
        timeout=None, max_file_size=None,
    )
    rounds = 20
    barrier = threading.Barrier(2)
    spans: List[List[Tuple[int, int]]] = [[], []]
    codes: List[str] = []

    def overlapped(r: int) -> bool:
        (a0, a1), (b0, b1) = spans[0][r], spans[1][r]
        return max(a0, b0) < min(a1, b1)

    def work(i: int) -> None:
        for r in range(rounds):
            barrier.wait()
            start, end, record = _native._scan_timed(PDF, PDF, options)
            codes.append(record["error"]["code"])
            spans[i].append((start, end))
            barrier.wait()  # both spans of round r are in
            if overlapped(r):
                return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(spans[0]) == len(spans[1])
    assert set(codes) == {"pdf_limit_exceeded"}
    assert overlapped(len(spans[0]) - 1), f"no two scans overlapped in {rounds} rounds: the GIL is held"


def test_the_public_scan_gives_the_timed_record() -> None:
    options = _native.Options(
        dpi=72.0, page_width=None, fields=True, apply_user_unit=True, dialects="",
        timeout=None, max_file_size=None,
    )
    record = _native._scan_timed(PDF, PDF, options)[2]
    with pytest.raises(signprep.LimitExceeded) as caught:
        signprep.scan(PDF)
    assert record["error"]["message"] == caught.value.message
