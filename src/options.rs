//! What a run is asked to do: the options `check` and `review` share, set from the command line.

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::Config;
use crate::filter::baseline::Baseline;
use crate::inputs::Excludes;
use crate::limits::Limits;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Where `$ref`s may lead; defaults to the working directory.
    pub root: Option<PathBuf>,
    /// One configuration for every file (`--config`, or set by a caller); without it each file
    /// gets its nearest `.idemlint.yaml`, or the defaults.
    pub config: Option<Config>,
    /// `--profile`: wins over a configuration's `extends`.
    pub profile: Option<String>,
    /// `--select`: only these rules run (empty: all).
    pub select: Vec<String>,
    /// `--ignore`: these rules do not run.
    pub ignore: Vec<String>,
    /// Of the rules selected, run only those that have fixes and those a suppression in the
    /// document names (so that it is judged as in a full run): `--diff` shows fixes, not
    /// findings.
    pub fixes_only: bool,
    /// Named files that are no OpenAPI document are skipped, as in a directory walk, instead of
    /// being an error (for hooks that pass every YAML file).
    pub skip_non_openapi: bool,
    /// Leave the document's tree allocated when done with it, when the run lints one document.
    /// Freeing millions of nodes is a tenth of the run time on a large spec, and a process about
    /// to exit need not pay it; with many documents, though, the trees would add up.
    pub skip_teardown: bool,
    /// `--exclude`: documents not to lint (a configuration's `exclude:` adds its own).
    pub exclude: Option<Excludes>,
    /// `--stdin-filename`: the name and place of the document read from `-`.
    pub stdin_filename: Option<PathBuf>,
    /// File size, nesting, alias and `$ref` fan-out limits.
    pub limits: Limits,
    /// `--allow-outside-root`: `$ref`s may read any local file.
    pub allow_outside_root: bool,
    /// `--allow-remote-refs`: `$ref`s to http(s) URLs are fetched.
    pub allow_remote_refs: bool,
    /// `--baseline`: the findings it knows are silenced, not shown.
    pub baseline: Option<Arc<Baseline>>,
    /// `--base`, `diff`: the documents' contracts at the base, which the contract-change rules
    /// compare with.
    pub base: Option<Arc<crate::contract::BaseContracts>>,
    /// In the run at a base: files renamed since, by their path in the project then and now,
    /// so that its fingerprints are the ones the renamed files give now.
    pub renamed: Option<Arc<std::collections::HashMap<String, String>>>,
}

impl Options {
    /// `--select` and `--ignore`, as the filter reads them.
    pub fn selection(&self) -> crate::filter::Selection<'_> {
        crate::filter::Selection {
            select: &self.select,
            ignore: &self.ignore,
            compared: self.base.is_some(),
        }
    }
}
