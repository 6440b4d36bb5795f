//! `idemlint lsp`: a Language Server over standard input and output. The engine lints the
//! editor's buffers (an [`Overlay`](crate::files::Overlay) in front of the disk) as `check`
//! lints files, and the server turns its findings into diagnostics, its fixes into code
//! actions and its rule docs into hovers.
//!
//! `server.rs` holds the loop and lifecycle, `documents.rs` the buffers, `worker.rs` the lint
//! thread, `diagnostics.rs` the report's conversion, `actions.rs` and `hover.rs` the requests,
//! `position.rs` the position encodings and `uri.rs` `file:` URIs.

mod actions;
mod diagnostics;
mod documents;
mod hover;
pub mod position;
mod server;
mod uri;
mod worker;

pub use server::{DEBOUNCE, run};
