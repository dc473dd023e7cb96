//! The counters behind `GET /metrics`, written as Prometheus text (version
//! 0.0.4): requests by route and status, a latency histogram, files by
//! status, pages scanned, requests in flight, connections closed for
//! headers that did not come in time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

#[derive(Debug, Default)]
pub struct Metrics {
    /// (route, status) → count. A BTreeMap: the text is in a stable order.
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    /// Per bucket (and +Inf last): requests at most that long.
    latency: Mutex<[u64; BUCKETS.len() + 1]>,
    latency_sum_micros: AtomicU64,
    /// `ok` / `error` → files.
    files: Mutex<BTreeMap<&'static str, u64>>,
    pages: AtomicU64,
    /// Connections closed by `--header-timeout`.
    header_timeouts: AtomicU64,
}

impl Metrics {
    /// One request answered.
    pub fn request(&self, route: &str, status: u16, took: Duration) {
        if let Ok(mut m) = self.requests.lock() {
            *m.entry((route.to_string(), status)).or_default() += 1;
        }
        let s = took.as_secs_f64();
        let i = BUCKETS
            .iter()
            .position(|b| s <= *b)
            .unwrap_or(BUCKETS.len());
        if let Ok(mut l) = self.latency.lock()
            && let Some(b) = l.get_mut(i)
        {
            *b += 1;
        }
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.latency_sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// One file scanned or checked: `ok` or `error`, and its pages.
    pub fn file(&self, ok: bool, pages: usize) {
        if let Ok(mut f) = self.files.lock() {
            *f.entry(if ok { "ok" } else { "error" }).or_default() += 1;
        }
        self.pages.fetch_add(pages as u64, Ordering::Relaxed);
    }

    /// A connection closed because a request's headers did not come within
    /// `--header-timeout` (no request, so no status, was made of it).
    pub fn header_timeout(&self) {
        self.header_timeouts.fetch_add(1, Ordering::Relaxed);
    }

    /// The text of `GET /metrics`; `in_flight`: requests admitted now;
    /// `lost`: worker threads lost to stuck inputs.
    pub fn render(&self, in_flight: usize, lost: usize) -> String {
        let mut s = String::new();
        s.push_str("# HELP signprep_http_requests_total Requests answered, by route and status.\n");
        s.push_str("# TYPE signprep_http_requests_total counter\n");
        if let Ok(m) = self.requests.lock() {
            for ((route, status), n) in m.iter() {
                let _ = writeln!(
                    s,
                    "signprep_http_requests_total{{route=\"{}\",status=\"{status}\"}} {n}",
                    label(route)
                );
            }
        }
        s.push_str(
            "# HELP signprep_http_request_duration_seconds Time from request to response.\n",
        );
        s.push_str("# TYPE signprep_http_request_duration_seconds histogram\n");
        let counts = self.latency.lock().map(|l| *l).unwrap_or_default();
        let mut cumulative = 0u64;
        for (i, n) in counts.iter().enumerate() {
            cumulative += n;
            let le = BUCKETS
                .get(i)
                .map_or_else(|| "+Inf".to_string(), |b| b.to_string());
            let _ = writeln!(
                s,
                "signprep_http_request_duration_seconds_bucket{{le=\"{le}\"}} {cumulative}"
            );
        }
        let sum = self.latency_sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(s, "signprep_http_request_duration_seconds_sum {sum}");
        let _ = writeln!(
            s,
            "signprep_http_request_duration_seconds_count {cumulative}"
        );
        s.push_str("# HELP signprep_files_total Files scanned or checked, by status.\n");
        s.push_str("# TYPE signprep_files_total counter\n");
        if let Ok(f) = self.files.lock() {
            for (status, n) in f.iter() {
                let _ = writeln!(s, "signprep_files_total{{status=\"{status}\"}} {n}");
            }
        }
        s.push_str("# HELP signprep_pages_scanned_total Pages of the files scanned.\n");
        s.push_str("# TYPE signprep_pages_scanned_total counter\n");
        let _ = writeln!(
            s,
            "signprep_pages_scanned_total {}",
            self.pages.load(Ordering::Relaxed)
        );
        s.push_str("# HELP signprep_http_header_timeouts_total Connections closed because a request's headers did not come within --header-timeout.\n");
        s.push_str("# TYPE signprep_http_header_timeouts_total counter\n");
        let _ = writeln!(
            s,
            "signprep_http_header_timeouts_total {}",
            self.header_timeouts.load(Ordering::Relaxed)
        );
        s.push_str("# HELP signprep_requests_in_flight Requests admitted (reading, waiting or worked on).\n");
        s.push_str("# TYPE signprep_requests_in_flight gauge\n");
        let _ = writeln!(s, "signprep_requests_in_flight {in_flight}");
        s.push_str("# HELP signprep_worker_threads_lost Worker threads lost to inputs the watchdog gave up on.\n");
        s.push_str("# TYPE signprep_worker_threads_lost gauge\n");
        let _ = writeln!(s, "signprep_worker_threads_lost {lost}");
        s
    }
}

/// A label value as the text format escapes it.
fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
