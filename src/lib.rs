//! idemlint: finds the operations of an OpenAPI description that are unsafe to retry.

#![forbid(unsafe_code)]

pub mod catalogue;
pub mod change;
pub mod classify;
pub mod cli;
pub mod config;
pub mod contract;
pub mod diagnostic;
pub mod discover;
pub mod engine;
pub mod explain;
pub mod facts;
pub mod fetch;
pub mod files;
pub mod filter;
pub mod fix;
pub mod fragments;
pub mod heuristics;
pub mod idempotency;
pub mod inputs;
pub mod limits;
pub mod lint;
pub mod lsp;
pub mod model;
pub mod options;
pub mod output;
pub mod probe;
pub mod project;
pub mod report;
pub mod resolve;
pub mod retry;
pub mod review;
pub mod rules;
pub mod shell;
pub mod source;
pub mod suggest;
pub mod suppress;
pub mod timings;
pub mod vocabulary;
