//! Benchmarks live in `benches/` (criterion) and `corpus-run.sh` (whole-corpus
//! throughput and peak memory of the release binary). This library is empty.
#![forbid(unsafe_code)]
