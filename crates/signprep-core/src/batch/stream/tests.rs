//! The stream's tests: order, panics, the watchdog and its replacement
//! workers, stop and broken pipe, largest first.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;

fn collect(stream: &Stream, n: usize, work: fn(&usize) -> usize) -> (Flow, Vec<String>) {
    let mut out = Vec::new();
    let flow = stream
        .run(
            0..n,
            |_| 0,
            move |i, _| work(i),
            |i, o| {
                out.push(match o {
                    Outcome::Done(v) => format!("{i}:{v}"),
                    Outcome::Panicked(m) => format!("{i}:panic {m}"),
                    Outcome::Abandoned(_) => format!("{i}:abandoned"),
                    Outcome::NotStarted(n) => format!("{i}:not started {n}"),
                });
                Ok(())
            },
        )
        .unwrap();
    (flow, out)
}

#[test]
fn order_is_kept_whatever_the_timing() {
    let work: fn(&usize) -> usize = |&i| {
        // Later items finish first.
        std::thread::sleep(Duration::from_micros(((50 - i % 50) * 20) as u64));
        i * 2
    };
    let stream = Stream::new(4).unwrap().window(8);
    let (flow, out) = collect(&stream, 300, work);
    assert_eq!(flow, Flow::Completed);
    let expected: Vec<String> = (0..300).map(|i| format!("{i}:{}", i * 2)).collect();
    assert_eq!(out, expected);
    let (flow, out) = collect(&stream, 0, work);
    assert_eq!((flow, out.len()), (Flow::Completed, 0));
}

#[test]
fn a_panic_is_an_outcome_and_the_run_goes_on() {
    let work: fn(&usize) -> usize = |&i| {
        assert!(i != 3, "boom at 3");
        i
    };
    let (_, out) = collect(&Stream::new(2).unwrap(), 6, work);
    assert_eq!(out[3], "3:panic boom at 3");
    assert_eq!(out[5], "5:5");
}

#[test]
fn the_watchdog_gives_up_on_a_stuck_item() {
    let work: fn(&usize) -> usize = |&i| {
        if i == 1 {
            std::thread::sleep(Duration::from_secs(3));
        }
        i
    };
    let stream = Stream::new(2)
        .unwrap()
        .watchdog(Some(Duration::from_millis(200)))
        .tick(Duration::from_millis(10));
    let (flow, out) = collect(&stream, 5, work);
    assert_eq!(flow, Flow::Completed);
    assert_eq!(out, ["0:0", "1:abandoned", "2:2", "3:3", "4:4"]);
}

#[test]
fn a_one_thread_run_goes_on_past_an_item_that_never_returns() {
    // The only worker blocks for good on item 1: a spare worker takes
    // over once the watchdog gives up on it. Run on a thread of its own,
    // so that a stall fails the test instead of hanging it.
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let work: fn(&usize) -> usize = |&i| {
            if i == 1 {
                loop {
                    std::thread::park();
                }
            }
            i
        };
        let stream = Stream::new(1)
            .unwrap()
            .watchdog(Some(Duration::from_millis(100)))
            .tick(Duration::from_millis(10));
        let _ = done_tx.send(collect(&stream, 6, work));
    });
    let (flow, out) = done_rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the run ended");
    assert_eq!(flow, Flow::Completed);
    assert_eq!(out, ["0:0", "1:abandoned", "2:2", "3:3", "4:4", "5:5"]);
}

#[test]
fn stops_between_items_and_on_a_broken_pipe() {
    let flag = Arc::new(AtomicBool::new(false));
    let stream = Stream::new(2).unwrap().stop_flag(Arc::clone(&flag));
    let mut seen = 0;
    let flow = stream
        .run(
            0..10_000usize,
            |_| 0,
            |&i, _| i,
            |_, _| {
                seen += 1;
                if seen == 10 {
                    flag.store(true, Ordering::SeqCst);
                }
                Ok(())
            },
        )
        .unwrap();
    assert_eq!((flow, seen), (Flow::Interrupted, 10));

    let stream = Stream::new(2).unwrap();
    let flow = stream
        .run(
            0..10_000usize,
            |_| 0,
            |&i, _| i,
            |i, _| {
                if *i == 5 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap();
    assert_eq!(flow, Flow::BrokenPipe);
}

#[test]
fn the_heaviest_waiting_item_starts_first_and_output_keeps_input_order() {
    let weights = [3u64, 1, 5, 3, 9, 0, 2, 7];
    let started = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&started);
    let stream = Stream::new(1).unwrap().window(16);
    let mut out = Vec::new();
    let flow = stream
        .run(
            0..weights.len(),
            move |&i| weights[i],
            move |&i, waiting| {
                log.lock().unwrap().push((i, waiting));
                // The first job holds the only worker until every item is waiting.
                std::thread::sleep(Duration::from_millis(if i == 0 { 200 } else { 1 }));
                i
            },
            |&i, _| {
                out.push(i);
                Ok(())
            },
        )
        .unwrap();
    assert_eq!(flow, Flow::Completed);
    assert_eq!(out, (0..weights.len()).collect::<Vec<_>>());
    let (started, waiting): (Vec<usize>, Vec<usize>) =
        started.lock().unwrap().iter().copied().unzip();
    // Whichever item the first job found, the rest start heaviest first, ties in input order.
    let rest = &started[1..];
    let mut expected = rest.to_vec();
    expected.sort_by_key(|&i| (Reverse(weights[i]), i));
    assert_eq!(rest, expected.as_slice(), "start order {started:?}");
    assert_eq!(started.len(), weights.len());
    // Each job was told how many items still waited for a worker: all the
    // others once the first job let go, none for the last.
    assert_eq!(&waiting[1..], &[6, 5, 4, 3, 2, 1, 0], "waiting {waiting:?}");
}

/// Never returns (the thread parks for good), as a file stuck in code that
/// never checks its time budget.
fn hang() -> ! {
    loop {
        std::thread::park();
    }
}

/// Runs `f` on a thread of its own and returns its result; fails the test
/// instead of hanging when there is none after a minute (no timing assert:
/// a run that ends takes well under a second of waiting per hanging item).
fn within<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the run ended (no hang, no panic)")
}

fn describe(i: usize, o: Outcome<usize>) -> String {
    match o {
        Outcome::Done(v) => format!("{i}:{v}"),
        Outcome::Panicked(m) => format!("{i}:panic {m}"),
        Outcome::Abandoned(limit) => format!("{i}:abandoned {limit:?}"),
        Outcome::NotStarted(n) => format!("{i}:not started {n}"),
    }
}

/// `n` items on `jobs` workers, a window of 4 and a 500 ms watchdog; the
/// items in `hanging` never return.
fn run_with_hangs(
    jobs: usize,
    max_stuck: usize,
    n: usize,
    hanging: &'static [usize],
) -> (Flow, Vec<String>) {
    within(move || {
        let stream = Stream::new(jobs)
            .unwrap()
            .window(4)
            .max_stuck(max_stuck)
            .watchdog(Some(Duration::from_millis(500)))
            .tick(Duration::from_millis(10));
        let mut out = Vec::new();
        let flow = stream
            .run(
                0..n,
                |_| 0,
                move |&i, _| if hanging.contains(&i) { hang() } else { i },
                |&i, o| {
                    out.push(describe(i, o));
                    Ok(())
                },
            )
            .unwrap();
        (flow, out)
    })
}

/// What a run over `n` items gives when the items in `hanging` are given up on.
fn expected(n: usize, hanging: &[usize]) -> Vec<String> {
    (0..n)
        .map(|i| {
            if hanging.contains(&i) {
                format!("{i}:abandoned 500ms")
            } else {
                format!("{i}:{i}")
            }
        })
        .collect()
}

#[test]
fn a_hanging_item_with_one_worker_is_replaced_and_the_run_ends() {
    // The one worker is stuck for good: a replacement takes the items after it.
    let (flow, out) = run_with_hangs(1, MAX_STUCK, 12, &[2]);
    assert_eq!(flow, Flow::Completed);
    assert_eq!(out, expected(12, &[2]));
}

#[test]
fn two_hanging_items_with_one_worker_or_as_many_as_workers_end() {
    // The replacement gets stuck too and is replaced in turn; with two
    // workers, both hang at once. The window (4) keeps admitting items: the
    // credits of the items given up on come back.
    for (jobs, hanging) in [(1, &[2usize, 5][..]), (2, &[2, 3][..]), (2, &[0, 1][..])] {
        let hanging: &'static [usize] = hanging;
        let (flow, out) = run_with_hangs(jobs, MAX_STUCK, 12, hanging);
        assert_eq!(flow, Flow::Completed, "jobs {jobs}, hanging {hanging:?}");
        assert_eq!(
            out,
            expected(12, hanging),
            "jobs {jobs}, hanging {hanging:?}"
        );
    }
}

#[test]
fn past_the_stuck_limit_the_run_halts_the_same_way_whatever_the_threads() {
    // max_stuck 1: item 1 is replaced; item 3, the second given up on, halts
    // the run; every later item is not started (or its result dropped), the
    // same with one worker as with three, whatever had run.
    let halted = [
        "0:0",
        "1:abandoned 500ms",
        "2:2",
        "3:abandoned 500ms",
        "4:not started 2",
        "5:not started 2",
        "6:not started 2",
        "7:not started 2",
        "8:not started 2",
    ];
    for jobs in [1, 3] {
        let (flow, out) = run_with_hangs(jobs, 1, 9, &[1, 3, 5]);
        assert_eq!(flow, Flow::Completed, "jobs {jobs}");
        assert_eq!(out, halted, "jobs {jobs}");
    }
}

#[test]
fn a_late_result_is_dropped_and_the_thread_is_replaced_again_next_run() {
    // Item 1 blocks until the sink has written item 3, long after the
    // watchdog gave up on it: its late result must not reach the sink.
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let stream = Arc::new(
        Stream::new(1)
            .unwrap()
            .watchdog(Some(Duration::from_millis(500)))
            .tick(Duration::from_millis(10)),
    );
    let (work_gate, sink_gate, first) = (Arc::clone(&gate), Arc::clone(&gate), Arc::clone(&stream));
    let out = within(move || {
        let mut out = Vec::new();
        let flow = first
            .run(
                0..8usize,
                |_| 0,
                move |&i, _| {
                    if i == 1 {
                        let (open, cv) = &*work_gate;
                        let mut open = open.lock().unwrap();
                        while !*open {
                            open = cv.wait(open).unwrap();
                        }
                    }
                    if i == 6 {
                        hang();
                    }
                    i
                },
                |&i, o| {
                    out.push(describe(i, o));
                    if i == 3 {
                        let (open, cv) = &*sink_gate;
                        *open.lock().unwrap() = true;
                        cv.notify_all();
                    }
                    Ok(())
                },
            )
            .unwrap();
        (flow, out)
    });
    assert_eq!(out.0, Flow::Completed);
    assert_eq!(out.1, expected(8, &[1, 6]));
    // Item 6's thread is still stuck: the next run of the same stream starts
    // with a replacement for it, and ends.
    let (flow, out) = within(move || collect(&stream, 5, |&i| i));
    assert_eq!(flow, Flow::Completed);
    assert_eq!(out, ["0:0", "1:1", "2:2", "3:3", "4:4"]);
}

/// More worker threads than [`MAX_JOBS`] is refused, not attempted.
#[test]
fn more_threads_than_the_bound_are_refused() {
    let e = Stream::new(MAX_JOBS + 1)
        .err()
        .map(|e| (e.kind(), e.to_string()));
    assert_eq!(
        e,
        Some((
            std::io::ErrorKind::InvalidInput,
            "1025 worker threads is more than the 1024 a run may have".to_string()
        ))
    );
}
