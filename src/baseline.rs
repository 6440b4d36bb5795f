//! Baselines: record today's findings, then report only new ones.
//!
//! An entry is a finding's rule, its file relative to the baseline's own folder, and its JSON
//! pointer. Matching on those, rather than on lines or on paths as typed, a baseline survives
//! lines moving, a run started in another folder and a path spelt another way (`api.yaml`,
//! `./api.yaml`, `$PWD/api.yaml`), and keeps matching wherever the repository is checked out.
//! Entries alike in all three (one rule, one place, two findings) are counted, so fixing one of
//! two is seen.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::project::relative_to;
use crate::report::{BaselineOutcome, Finding, Report, StaleEntry, Suppressed, SuppressionKind};
use crate::resolve::normalize;

/// The version written; earlier ones are refused with a hint to write the baseline anew.
const VERSION: u32 = 2;

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize, Clone)]
struct Entry {
    rule: String,
    /// Relative to the baseline's folder, `/`-separated; a URL for a fetched remote file.
    file: String,
    pointer: String,
    /// For the reader of the file; not matched.
    message: String,
}

/// A loaded baseline, ready to match findings.
pub struct Baseline {
    /// Shown in notes, as the user gave it.
    name: String,
    /// The canonical folder the entries' paths are relative to.
    dir: PathBuf,
    entries: Vec<Entry>,
}

/// The folder a baseline at `path` keeps its paths relative to: the one it is (or will be) in.
fn folder_of(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let dir = normalize(&cwd.join(path))
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

/// `finding`'s file as a baseline in `dir` writes it.
fn file_in(finding: &Finding, dir: &Path) -> String {
    let path = &finding.source.path;
    match path.to_str() {
        Some(url) if crate::fetch::is_http(url) => url.to_string(),
        _ => relative_to(path, dir),
    }
}

/// Writes the findings of `report` as a baseline file at `path` (whole or not at all, see
/// [`crate::output`]).
pub fn write(path: &Path, report: &Report) -> std::io::Result<()> {
    let dir = folder_of(path);
    let file = BaselineFile {
        version: VERSION,
        findings: report
            .findings
            .iter()
            .map(|f| Entry {
                rule: f.rule.to_string(),
                file: file_in(f, &dir),
                pointer: f.pointer.clone(),
                message: f.message.clone(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("serialises");
    text.push('\n');
    crate::output::write_to(path, text.as_bytes())
}

/// Reads the baseline at `path`; its paths are normalised (`./`, `..`, absolute, `\`) so that a
/// hand-edited entry matches as well as a written one.
pub fn load(path: &Path) -> Result<Baseline, String> {
    let text = std::fs::read_to_string(path).map_err(|e| crate::source::io_message(&e))?;
    #[derive(Deserialize)]
    struct Version {
        version: u32,
    }
    let version = serde_json::from_str::<Version>(&text)
        .map_err(|e| format!("not an idemlint baseline: {e}"))?
        .version;
    if version != VERSION {
        return Err(format!(
            "baseline version {version} is not supported ({VERSION} is); write it anew with \
             --write-baseline"
        ));
    }
    let file: BaselineFile =
        serde_json::from_str(&text).map_err(|e| format!("not an idemlint baseline: {e}"))?;
    let dir = folder_of(path);
    let entries = file
        .findings
        .into_iter()
        .map(|mut e| {
            if !crate::fetch::is_http(&e.file) {
                let written = PathBuf::from(e.file.replace('\\', "/"));
                e.file = relative_to(&normalize(&dir.join(written)), &dir);
            }
            e
        })
        .collect();
    Ok(Baseline {
        name: crate::discover::display_name(path),
        dir,
        entries,
    })
}

/// Moves the findings the baseline knows into `report.suppressed`, and records in
/// `report.baseline` how many entries matched and which matched nothing.
pub fn apply(report: &mut Report, baseline: &Baseline) {
    let key = |rule: &str, file: &str, pointer: &str| format!("{rule}\0{file}\0{pointer}");
    let mut left: HashMap<String, usize> = HashMap::new();
    for e in &baseline.entries {
        *left.entry(key(&e.rule, &e.file, &e.pointer)).or_default() += 1;
    }
    let findings = std::mem::take(&mut report.findings);
    let mut matched = 0;
    for f in findings {
        match left.get_mut(&key(f.rule, &file_in(&f, &baseline.dir), &f.pointer)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                matched += 1;
                report.suppressed.push(Suppressed {
                    finding: f,
                    kind: SuppressionKind::Baseline,
                    reason: None,
                });
            }
            _ => report.findings.push(f),
        }
    }
    // The entries of each key beyond what matched are stale, in the file's order.
    let mut stale = Vec::new();
    for e in &baseline.entries {
        if let Some(n) = left.get_mut(&key(&e.rule, &e.file, &e.pointer))
            && *n > 0
        {
            *n -= 1;
            stale.push(StaleEntry {
                rule: e.rule.clone(),
                file: e.file.clone(),
                pointer: e.pointer.clone(),
                message: e.message.clone(),
            });
        }
    }
    report.baseline = Some(BaselineOutcome {
        file: baseline.name.clone(),
        entries: baseline.entries.len(),
        matched,
        stale,
    });
}

/// What a user is told of the baseline on standard error: nothing when every entry matched, a
/// warning when none did although there are findings (its paths are likely not this project's),
/// else the stale entries, which `--write-baseline` would drop.
pub fn notes(outcome: &BaselineOutcome, new_findings: usize) -> Option<String> {
    const SHOWN: usize = 5;
    let first = outcome.stale.first()?;
    let place = |e: &StaleEntry| {
        format!(
            "`{}` in {} at {}",
            e.rule,
            e.file,
            if e.pointer.is_empty() {
                "the top"
            } else {
                &e.pointer
            }
        )
    };
    if outcome.matched == 0 && new_findings > 0 {
        return Some(format!(
            "warning: baseline {} matched none of the {new_findings} finding{}: its {} entr{} \
             name other places (the first: {}); paths in a baseline are relative to its folder. \
             Rerun --write-baseline if the files moved.\n",
            outcome.file,
            plural(new_findings, "", "s"),
            outcome.entries,
            plural(outcome.entries, "y", "ies"),
            place(first),
        ));
    }
    let n = outcome.stale.len();
    let mut listed: Vec<String> = outcome.stale.iter().take(SHOWN).map(place).collect();
    if n > SHOWN {
        listed.push(format!("and {} more", n - SHOWN));
    }
    Some(format!(
        "note: {n} baseline entr{} {} stale (no such finding any more): {}; rerun \
         --write-baseline to drop {}.\n",
        plural(n, "y", "ies"),
        plural(n, "is", "are"),
        listed.join(", "),
        plural(n, "it", "them"),
    ))
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
