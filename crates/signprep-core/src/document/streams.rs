//! Decoding a stream within the document's budgets: the time budget, one
//! stream's inflate limit and the document's inflate budget.
#![allow(clippy::disallowed_types)] // the document layer: decodes lopdf streams

use super::{Document, StreamObj};
use crate::error::Limit;
use crate::loader::filters;
use crate::loader::inflate::{self, Inflated};
use std::sync::atomic::Ordering;

impl Document {
    /// Decodes a stream, charging its size to the document's budget.
    pub(crate) fn stream_bytes(&self, stream: StreamObj<'_>) -> Result<Vec<u8>, StreamError> {
        let stream = stream.raw();
        // Inflating is the costly step, and a stream that fails in a later
        // filter is not charged to the byte budget: check the clock first.
        if let Some(limit) = self.over_time() {
            return Err(StreamError::DocumentLimit(limit));
        }
        // Once the document's budget is spent, refuse before inflating: callers
        // that skip a failed stream (a font's ToUnicode) must not pay again.
        if self.inflated.load(Ordering::Relaxed) > self.options.max_document_bytes {
            return Err(StreamError::DocumentLimit(Limit::DocumentBytes {
                limit: self.options.max_document_bytes,
            }));
        }
        let limit = self.options.max_stream_bytes;
        // Abbreviated filter names (`/Fl`, `/AHx`, ...) decode as the full ones.
        let expanded = filters::expanded(stream);
        let stream = expanded.as_ref().unwrap_or(stream);
        let decoded = match inflate::inflate(stream, limit) {
            Inflated::Data(d) => Ok(d),
            Inflated::OverLimit => Err(lopdf::Error::Decompress(
                lopdf::DecompressError::MemoryLimitExceeded { limit },
            )),
            Inflated::Lopdf => stream.decompressed_content_with_limit(limit),
        };
        let data = match decoded {
            Ok(d) => d,
            Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                ..
            })) => {
                return Err(StreamError::Limit(Limit::StreamBytes {
                    limit: self.options.max_stream_bytes,
                }));
            }
            Err(lopdf::Error::Decompress(lopdf::DecompressError::TooManyFilters { .. })) => {
                return Err(StreamError::Limit(Limit::Filters));
            }
            // A filter not decoded here (an image's: JBIG2, JPX, DCT, CCITT):
            // the stream is skipped, never the page.
            Err(lopdf::Error::Unimplemented(_)) => {
                return Err(StreamError::Corrupt(format!(
                    "it uses a filter signprep does not decode: {}",
                    filters::names(stream)
                )));
            }
            // lopdf's own words stay out of findings.
            Err(_) => {
                return Err(StreamError::Corrupt(format!(
                    "its {} data is damaged",
                    filters::names(stream)
                )));
            }
        };
        let total = self.inflated.fetch_add(data.len(), Ordering::Relaxed) + data.len();
        if total > self.options.max_document_bytes {
            return Err(StreamError::DocumentLimit(Limit::DocumentBytes {
                limit: self.options.max_document_bytes,
            }));
        }
        Ok(data)
    }
}

/// Why a stream could not be decoded.
#[derive(Clone, Debug)]
pub(crate) enum StreamError {
    /// A limit of one stream was hit: fatal for the document.
    Limit(Limit),
    /// A limit of the whole document (its inflate or time budget) was hit:
    /// fatal too, but which page crosses it first depends on how the pages
    /// were scheduled, so messages do not name the page (output must not
    /// depend on the thread count).
    DocumentLimit(Limit),
    /// The data is damaged: the stream is skipped.
    Corrupt(String),
}
