//! idemlint: finds the operations of an OpenAPI description that are unsafe to retry.

pub mod source;
