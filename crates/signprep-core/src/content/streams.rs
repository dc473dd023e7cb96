//! A page's content: its content streams decoded and joined, damaged ones
//! reported and skipped.

use crate::diag::{Code, Diagnostic};
use crate::document::{Error, ObjectId, PageRef, StreamError};
use crate::resources::Resources;
use crate::stream_cache::{Decoded, Reuse};

/// The page's content streams, decoded and joined (a single stream as it is
/// decoded, shared with the stream cache when several pages list it); damaged
/// streams are skipped with a diagnostic, limits are fatal.
pub(super) fn page_content(
    res: &Resources<'_>,
    page_ref: &PageRef,
    page: usize,
    diags: &mut Vec<Diagnostic>,
    mut segments: Option<&mut Vec<(Option<ObjectId>, usize, usize)>>,
) -> Result<Decoded, Error> {
    let streams = res.doc().content_streams(page_ref);
    for (number, generation) in res.doc().lost_content_streams(page_ref) {
        diags.push(
            Diagnostic::new(
                Code::ContentUnreadable,
                format!(
                    "page {}: its content stream (object {number} {generation}) is missing or damaged; its text is missing",
                    page + 1
                ),
            )
            .page(page),
        );
    }
    let mut out = Vec::new();
    let one = streams.len() == 1;
    for (id, s) in streams {
        let decoded = res.decoded_stream(id, s, Reuse::PageContent);
        if let (Some(segs), Ok(data)) = (segments.as_deref_mut(), &decoded) {
            segs.push((id, out.len(), data.len()));
        }
        match decoded {
            Ok(data) if one => return Ok(data),
            Ok(data) => {
                out.extend_from_slice(&data);
                out.push(b'\n');
            }
            Err(StreamError::Limit(limit)) => return Err(Error::limit_on_page(limit, page)),
            Err(StreamError::DocumentLimit(limit)) => return Err(Error::limit(limit)),
            Err(StreamError::Corrupt(msg)) => diags.push(
                Diagnostic::new(
                    Code::ContentUnreadable,
                    format!("page {}: a content stream could not be decoded ({msg}); its text is missing", page + 1),
                )
                .page(page),
            ),
        }
    }
    Ok(Decoded::Owned(out))
}
