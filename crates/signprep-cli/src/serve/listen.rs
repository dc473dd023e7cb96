//! The accept loop: each TCP connection served by hyper's HTTP/1 with the
//! routes as its service, a header-read timeout (`--header-timeout`, on
//! hyper's timer over tokio's), and graceful shutdown for them all. Built
//! here rather than with `axum::serve`, which sets no timer and so no
//! timeout: a client that sends half a request line would hold its
//! connection for ever.

use super::App;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io::ErrorKind;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Serves every connection `listener` accepts until `stop` ends; then
/// accepts no more and returns the connections still open, told to finish
/// their request in flight and close ([`GracefulShutdown::shutdown`] waits
/// for them).
pub async fn accept(
    listener: TcpListener,
    router: Router,
    app: Arc<App>,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) -> GracefulShutdown {
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // One connection's failure, or a resource running out
                    // (too many open files): in the second case, wait before
                    // trying again rather than spin (as axum::serve does).
                    if !matches!(
                        e.kind(),
                        ErrorKind::ConnectionRefused
                            | ErrorKind::ConnectionAborted
                            | ErrorKind::ConnectionReset
                    ) {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let conn = builder.serve_connection(
            TokioIo::new(stream),
            TowerToHyperService::new(router.clone()),
        );
        let conn = graceful.watch(conn);
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            if let Err(e) = conn.await
                && e.is_timeout()
            {
                app.metrics.header_timeout();
            }
        });
    }
    graceful
}
