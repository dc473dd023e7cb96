//! Request JSON model, builder and validation rules for the e-signature service.
//!
//! This crate is a placeholder for now: the typed request model and the `PackBuilder`
//! arrive with their own issue. It already depends on [`signprep_core`] so that the
//! crate graph is the one the project will keep.
#![forbid(unsafe_code)]

pub use signprep_core;
