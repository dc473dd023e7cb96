//! Ctrl-C (and SIGTERM, SIGHUP: a Kubernetes pod being stopped) as a flag the
//! stream checks between records. A second signal quits at once, exit status 130.

use crate::exit::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The process-wide stop flag; the first call installs the handler. If it cannot
/// be installed, the signals keep their default action (the process ends).
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if raised.swap(true, Ordering::SeqCst) {
                std::process::exit(ExitStatus::Interrupted.code().into());
            }
        });
        flag
    }))
}
