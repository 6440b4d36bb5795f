//! The OpenAPI documents that reach a fragment through `$ref`. A pre-commit hook names the
//! files a commit changed; when that is only `schemas/pet.yaml`, the documents using it are what
//! must be linted.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::discover::{Input, discover};
use crate::files::Files;
use crate::limits::Limits;
use crate::model;
use crate::resolve::{Bundle, ResolveOptions};
use crate::source::SourceFile;

/// A root document found, with the fragments (indices into the targets) it reaches.
pub struct Reaching {
    pub file: SourceFile,
    pub reaches: Vec<usize>,
}

/// Every OpenAPI document under `dir` (walked as a directory argument is) that reaches one of
/// `targets` (canonical paths) through its `$ref`s. Each candidate is loaded with the run's
/// limits, in parallel; documents that do not load are left to whoever lints them.
pub fn documents_reaching(
    targets: &[PathBuf],
    dir: &Path,
    cwd: &Path,
    files: &dyn Files,
    resolve: &ResolveOptions,
    limits: &Limits,
) -> Vec<Reaching> {
    let (inputs, _) = discover(&[dir.to_path_buf()], cwd, files, limits);
    inputs
        .into_par_iter()
        .filter_map(|input| {
            let Input::File {
                path, name, bytes, ..
            } = input
            else {
                return None;
            };
            let abs = cwd.join(&path);
            let abs = crate::files::identity(files, &abs);
            if targets.contains(&abs) {
                return None;
            }
            let file = match bytes {
                Some(bytes) => SourceFile::decode(abs, name, bytes).ok()?,
                None => SourceFile::read(files, &abs, name, limits).ok()?,
            };
            let loaded = file.parse(limits).ok()?;
            model::build::spec_version(&loaded.root).ok()?;
            let bundle = Bundle::load(file, loaded.root, Vec::new(), files, resolve);
            let reached: HashSet<&Path> = bundle
                .files
                .iter()
                .skip(1)
                .map(|f| f.source.path.as_path())
                .collect();
            let reaches: Vec<usize> = targets
                .iter()
                .enumerate()
                .filter(|(_, t)| reached.contains(t.as_path()))
                .map(|(i, _)| i)
                .collect();
            if reaches.is_empty() {
                return None;
            }
            // The document is parsed again when it is linted: its trees here are dropped once
            // its reach is known, and only the source text goes on.
            let mut files = bundle.files;
            let file = std::sync::Arc::try_unwrap(files.swap_remove(0).source).ok()?;
            Some(Reaching { file, reaches })
        })
        .collect()
}
