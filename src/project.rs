//! Where a file sits in its project, written the same whatever the working directory and however
//! the path was spelt (`api.yaml`, `./api.yaml`, `$PWD/api.yaml`, `sub/../api.yaml`): the basis
//! of fingerprints and baselines, which must match from any folder a run starts in.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Finds each file's project: the top of the git work tree holding it (the nearest folder with a
/// `.git` directory or file, so worktrees and submodules count), else a fallback folder (the
/// `$ref` root: `--root`, or the working directory). Folders are looked up once.
#[derive(Debug)]
pub struct Projects {
    fallback: PathBuf,
    tops: HashMap<PathBuf, Option<PathBuf>>,
}

impl Projects {
    /// `fallback` is made absolute and canonical here.
    pub fn new(fallback: &Path) -> Self {
        let fallback = std::fs::canonicalize(fallback).unwrap_or_else(|_| fallback.to_path_buf());
        Projects {
            fallback,
            tops: HashMap::new(),
        }
    }

    /// `path` (absolute and normalised, as `SourceFile::path` is) relative to its project, with
    /// `/` separators. A URL (a fetched remote `$ref`) is its own name.
    pub fn relative(&mut self, path: &Path) -> String {
        let Some(text) = path.to_str() else {
            return path.to_string_lossy().into_owned();
        };
        if crate::fetch::is_http(text) {
            return text.to_string();
        }
        let top = path.parent().and_then(|dir| self.git_top(dir));
        relative_to(path, top.as_deref().unwrap_or(&self.fallback))
    }

    fn git_top(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(top) = self.tops.get(dir) {
            return top.clone();
        }
        let top = if dir.join(".git").exists() {
            Some(dir.to_path_buf())
        } else {
            dir.parent().and_then(|parent| self.git_top(parent))
        };
        self.tops.insert(dir.to_path_buf(), top.clone());
        top
    }
}

/// `path` relative to the folder `base` (both absolute and normalised), `/`-separated, with `..`
/// where `path` lies outside `base`.
pub fn relative_to(path: &Path, base: &Path) -> String {
    let path: Vec<Component<'_>> = path.components().collect();
    let base: Vec<Component<'_>> = base.components().collect();
    let common = path.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); base.len() - common];
    parts.extend(
        path[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_git_top_else_the_fallback() {
        let dir = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(top.join("repo/.git")).unwrap();
        std::fs::create_dir_all(top.join("repo/api/v1")).unwrap();
        std::fs::create_dir_all(top.join("loose/specs")).unwrap();
        // A worktree or submodule has a `.git` file.
        std::fs::create_dir_all(top.join("repo/vendor/sub")).unwrap();
        std::fs::write(
            top.join("repo/vendor/sub/.git"),
            "gitdir: ../../.git/modules/sub",
        )
        .unwrap();

        let mut projects = Projects::new(&top.join("loose"));
        let in_git = top.ancestors().any(|a| a.join(".git").exists());
        assert_eq!(
            projects.relative(&top.join("repo/api/v1/openapi.yaml")),
            "api/v1/openapi.yaml"
        );
        assert_eq!(projects.relative(&top.join("repo/api.yaml")), "api.yaml");
        assert_eq!(
            projects.relative(&top.join("repo/vendor/sub/api.yaml")),
            "api.yaml"
        );
        if !in_git {
            assert_eq!(
                projects.relative(&top.join("loose/specs/api.yaml")),
                "specs/api.yaml"
            );
        }
        assert_eq!(
            projects.relative(Path::new("https://example.com/common.yaml")),
            "https://example.com/common.yaml"
        );
    }

    #[test]
    fn relative_paths_climb_out_with_dot_dot() {
        let rel = |p: &str, b: &str| relative_to(Path::new(p), Path::new(b));
        assert_eq!(rel("/a/b/c.yaml", "/a"), "b/c.yaml");
        assert_eq!(rel("/a/c.yaml", "/a/b"), "../c.yaml");
        assert_eq!(rel("/x/y.yaml", "/a/b"), "../../x/y.yaml");
        assert_eq!(rel("/a", "/a"), ".");
    }
}
