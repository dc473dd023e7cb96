//! Drawing a loaded document's pages on the batch runner and writing them:
//! [`Painter`] (the command's one [`Runner`]: `--jobs` threads, the
//! watchdog, Ctrl-C) runs each step of a preview (a request read, a document
//! loaded) as one input and draws each page of a [`Sheet`] as one, then
//! writes them in page order, PNG and overlay JSON, atomically.

use super::load::{LoadError, Loaded};
use crate::batch::{Ended, Progress, Runner};
use crate::exit::ExitStatus;
use signprep_core::LoadOptions;
use signprep_render::{Overlay, RenderError, Style, draw_overlay, render_page};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Page `page` drawn with `overlay` and encoded as PNG; the error in our words.
fn draw(loaded: &Loaded, page: usize, overlay: &Overlay, style: &Style) -> Result<Vec<u8>, String> {
    let pdf = loaded.pdf.as_ref().map_err(|e| e.to_string())?;
    let mut img = render_page(&loaded.doc, pdf, page, &loaded.scan).map_err(|e| e.to_string())?;
    draw_overlay(&mut img, overlay, style);
    img.to_png().map_err(|e| e.to_string())
}

/// Page `page` with its tags and fields drawn, as PNG (`serve`'s `/v1/preview`).
pub fn page_png(loaded: &Loaded, page: usize, style: &Style) -> Result<Vec<u8>, String> {
    let overlay = Overlay::for_page(&loaded.scan, page, style).ok_or_else(|| {
        RenderError::NoSuchPage {
            page,
            count: loaded.scan.pages.len(),
        }
        .to_string()
    })?;
    draw(loaded, page, &overlay, style)
}

/// `NAME-pNN.png`, the page number 1-based and padded to the page count's width.
pub fn png_name(stem: &str, page: usize, count: usize) -> String {
    let digits = count.max(1).to_string().len();
    format!("{stem}-p{:0digits$}.png", page + 1)
}

/// Where a document's pages go: `DIR/STEM-pN.png`, and with `json` the
/// overlay beside each as `DIR/STEM-pN.json`.
pub struct Out<'a> {
    pub dir: &'a Path,
    pub stem: &'a str,
    pub json: bool,
}

/// What is drawn on a page: the overlay of a loaded document's page in a style.
type PageOverlay = dyn Fn(&Loaded, usize, &Style) -> Option<Overlay> + Send + Sync;

/// A loaded document ready to draw: its style and what each page's overlay
/// is (by default the scan's tags and fields, [`Overlay::for_page`]).
pub struct Sheet {
    loaded: Loaded,
    style: Style,
    overlay: Box<PageOverlay>,
}

impl Sheet {
    /// `loaded` drawn in `style`, with the scan's tags and fields.
    pub fn new(loaded: Loaded, style: Style) -> Sheet {
        Sheet {
            loaded,
            style,
            overlay: Box::new(|loaded, page, style| Overlay::for_page(&loaded.scan, page, style)),
        }
    }

    /// Each page with the overlay `overlay` gives it instead (what a
    /// migration or a plan adds).
    #[must_use]
    pub fn overlay(
        mut self,
        overlay: impl Fn(&Loaded, usize, &Style) -> Option<Overlay> + Send + Sync + 'static,
    ) -> Sheet {
        self.overlay = Box::new(overlay);
        self
    }

    /// The document drawn.
    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    /// The style it is drawn in.
    pub fn style(&self) -> &Style {
        &self.style
    }

    /// Page `page` drawn: its overlay, and the PNG or why it could not be drawn.
    fn draw(&self, page: usize) -> DrawnPage {
        let overlay = (self.overlay)(&self.loaded, page, &self.style);
        let png = match &overlay {
            Some(o) => draw(&self.loaded, page, o, &self.style),
            None => Err(RenderError::NoSuchPage {
                page,
                count: self.loaded.scan.pages.len(),
            }
            .to_string()),
        };
        DrawnPage { overlay, png }
    }
}

/// Why a step of the preview ([`Painter::step`]) gives nothing.
pub enum Unloaded {
    /// The step failed ([`LoadError`]), panicked (a bug) or was given up on
    /// by the watchdog (exit 1, in the words of an `internal_error` or
    /// `pdf_limit_exceeded` record): the exit status it calls for and the
    /// message, not yet printed.
    Failed(ExitStatus, String),
    /// The preview stops here with this status, its last line printed:
    /// Ctrl-C or SIGTERM (130), or the engine could not run (2).
    Stopped(ExitStatus),
}

/// The last line of a preview that Ctrl-C stopped, and its status (130).
pub fn interrupted() -> ExitStatus {
    crate::exit::fail(
        "interrupted; the files listed above are written, no others",
        ExitStatus::Interrupted,
    )
}

/// The batch [`Runner`] set up for one preview: `--jobs` threads, the
/// watchdog, Ctrl-C. Every step of the preview runs on it, on its one pool:
/// reading a request and loading each document is one input of a run
/// ([`Painter::step`]), drawing a document's pages one input per page
/// ([`Painter::write_pages`]): a panic drawing a page (a bug) is that page's
/// error and the others are drawn; Ctrl-C or SIGTERM stops between two steps
/// or two pages.
pub struct Painter {
    runner: Runner,
    /// The same pool without the watchdog, for a request read and checked
    /// whole ([`Painter::read_request`]).
    whole: Runner,
}

impl Painter {
    /// Pages drawn ahead of the oldest one not yet written (PNGs held in memory).
    const WINDOW: usize = 16;

    /// `jobs` threads (none: all cores), the watchdog of the default time
    /// budget (as `scan`'s); when the threads cannot be started, the last
    /// line is printed and the status (2) returned.
    pub fn new(jobs: Option<usize>) -> Result<Painter, ExitStatus> {
        let runner = Runner::new(jobs, &LoadOptions::default())?.window(Self::WINDOW);
        Ok(Painter {
            whole: runner.without_watchdog(),
            runner,
        })
    }

    /// [`Painter::step`] for reading and checking a request (a pack body, a
    /// manifest, a plan): no watchdog, since a manifest's check scans every
    /// PDF it names, however many; each under the core's time budget.
    pub fn read_request<T: Send + 'static>(
        &self,
        label: &str,
        work: impl FnOnce() -> Result<T, LoadError> + Send + 'static,
    ) -> Result<T, Unloaded> {
        step_on(&self.whole, label, work)
    }

    /// Runs `work` (loading a document with [`super::load::load`] or [`super::load::load_bytes`]) on the workers,
    /// as one input of the runner; a panic in it or the watchdog fails as
    /// `cannot preview LABEL: ...`.
    pub fn step<T: Send + 'static>(
        &self,
        label: &str,
        work: impl FnOnce() -> Result<T, LoadError> + Send + 'static,
    ) -> Result<T, Unloaded> {
        step_on(&self.runner, label, work)
    }

    /// Draws `pages` of `sheet` and writes them to `out` in page order,
    /// printing each path: the PNG, and with `out.json` the overlay (also of
    /// a page that could not be drawn). A page that could not be drawn adds
    /// exit status 1 to `verdict`, a file that could not be written 2.
    /// `what` names the document in messages. `Err`: the preview stops with
    /// this status, its last line printed (Ctrl-C: 130).
    pub fn write_pages(
        &self,
        sheet: Sheet,
        pages: Vec<usize>,
        out: &Out<'_>,
        what: &str,
        verdict: &mut crate::batch::Summary,
    ) -> Result<(), ExitStatus> {
        let count = sheet.loaded.doc.page_count();
        let sheet = Arc::new(sheet);
        let name = what.to_string();
        let ended = self.runner.run(
            pages.into_iter(),
            |_| 0,
            move |&page, _| {
                signprep_core::batch::test_hook(&format!("{name} page {}", page + 1));
                sheet.draw(page)
            },
            Progress::hidden(),
            |&page, result, _| {
                // A panic or the watchdog is the page's error.
                let DrawnPage { overlay, png } = result.unwrap_or_else(|e| DrawnPage {
                    overlay: None,
                    png: Err(e.message()),
                });
                let path: PathBuf = out.dir.join(png_name(out.stem, page, count));
                match png {
                    Ok(bytes) => match crate::atomic::write(&path, &bytes) {
                        Ok(()) => println!("{}", path.display()),
                        Err(e) => {
                            verdict.add(ExitStatus::Error, crate::atomic::cannot_write(&path, &e))
                        }
                    },
                    Err(e) => verdict.add(
                        ExitStatus::Failure,
                        format!("{what}: page {}: {e}", page + 1),
                    ),
                }
                if out.json
                    && let Some(overlay) = overlay
                {
                    write_json(&path.with_extension("json"), &overlay, verdict);
                }
                Ok(())
            },
        );
        match ended {
            Ok(Ended::Completed) => Ok(()),
            Ok(Ended::Interrupted) => Err(interrupted()),
            Err(status) => Err(status),
        }
    }
}

/// One page drawn: its overlay, and the PNG or why it could not be drawn.
struct DrawnPage {
    overlay: Option<Overlay>,
    png: Result<Vec<u8>, String>,
}

/// Writes an overlay as pretty JSON (and a newline), printing the path.
fn write_json(path: &Path, overlay: &Overlay, verdict: &mut crate::batch::Summary) {
    let written = serde_json::to_vec_pretty(overlay)
        .map_err(std::io::Error::other)
        .and_then(|mut b| {
            b.push(b'\n');
            crate::atomic::write(path, &b)
        });
    match written {
        Ok(()) => println!("{}", path.display()),
        Err(e) => verdict.add(ExitStatus::Error, crate::atomic::cannot_write(path, &e)),
    }
}

/// Runs `work` as the one input of a run on `runner`: its result, or how it
/// failed (`cannot preview LABEL: ...`) or stopped.
fn step_on<T: Send + 'static>(
    runner: &Runner,
    label: &str,
    work: impl FnOnce() -> Result<T, LoadError> + Send + 'static,
) -> Result<T, Unloaded> {
    let once = std::sync::Mutex::new(Some(work));
    let mut result = None;
    let ended = runner.run(
        std::iter::once(once),
        |_| 0,
        |once, _| once.lock().ok().and_then(|mut w| w.take()).map(|w| w()),
        Progress::hidden(),
        |_, outcome, _| {
            result = Some(match outcome {
                Ok(Some(r)) => r.map_err(|e| Unloaded::Failed(e.status(), e.message())),
                // Not reached: the work is taken once.
                Ok(None) => Err(Unloaded::Failed(
                    ExitStatus::Failure,
                    format!("cannot preview {label}: not loaded"),
                )),
                Err(e) => Err(Unloaded::Failed(
                    ExitStatus::Failure,
                    format!("cannot preview {label}: {}", e.message()),
                )),
            });
            Ok(())
        },
    );
    match (ended, result) {
        (Ok(Ended::Completed), Some(r)) => r,
        (Err(status), _) => Err(Unloaded::Stopped(status)),
        (Ok(_), _) => Err(Unloaded::Stopped(interrupted())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_by_page() {
        assert_eq!(png_name("a", 0, 12), "a-p01.png");
        assert_eq!(png_name("a", 11, 12), "a-p12.png");
        assert_eq!(png_name("a", 0, 1), "a-p1.png");
    }
}
