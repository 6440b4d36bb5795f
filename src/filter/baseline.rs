//! Baselines: record today's findings, then report only new ones.
//!
//! An entry is a finding's rule, its file relative to the baseline's own folder, and its JSON
//! pointer. Matching on those, rather than on lines or on paths as typed, a baseline survives
//! lines moving, a run started in another folder and a path spelt another way (`api.yaml`,
//! `./api.yaml`, `$PWD/api.yaml`), and keeps matching wherever the repository is checked out.
//! Entries alike in all three (one rule, one place, two findings) are counted, so fixing one of
//! two is seen.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::normalize;
use crate::project::relative_to;

/// How a `--baseline` file matched this run's findings.
#[derive(Debug, Clone)]
pub struct BaselineOutcome {
    /// The baseline file, as given.
    pub file: String,
    pub entries: usize,
    /// Findings the baseline silenced.
    pub matched: usize,
    /// Every entry for a local file names one that no longer exists.
    pub all_missing: bool,
    /// Some entry names a file this run loaded.
    pub names_a_linted_file: bool,
    /// Entries that matched no finding, in the baseline's order.
    pub stale: Vec<StaleEntry>,
}

/// A baseline entry no finding of the run matched.
#[derive(Debug, Clone)]
pub struct StaleEntry {
    pub rule: String,
    /// Relative to the baseline's folder.
    pub file: String,
    pub pointer: String,
    pub message: String,
}

/// The version written; earlier ones are refused with a hint to write the baseline anew.
const VERSION: u32 = 2;

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize, Clone)]
struct Entry {
    rule: String,
    /// Relative to the baseline's folder, `/`-separated; a URL for a fetched remote file.
    file: String,
    pointer: String,
    /// For the reader of the file; not matched.
    message: String,
}

/// A loaded baseline, ready to match findings.
#[derive(Debug)]
pub struct Baseline {
    /// Shown in notes, as the user gave it.
    name: String,
    /// The canonical folder the entries' paths are relative to.
    dir: PathBuf,
    entries: Vec<Entry>,
}

/// The folder a baseline at `path` keeps its paths relative to: the one the file is (or will
/// be) in, past any symlink, since that is where `--write-baseline` writes it.
fn folder_of(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let file = crate::output::final_target(&cwd.join(path));
    let dir = normalize(&file)
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

/// A file's path (absolute, or a URL) as a baseline in `dir` writes it.
fn path_in(path: &Path, dir: &Path) -> String {
    match path.to_str() {
        Some(url) if crate::fetch::is_http(url) => url.to_string(),
        _ => relative_to(path, dir),
    }
}

/// A finding as a baseline knows it: its rule, its file (absolute, or a URL), its JSON pointer
/// and (for the reader of the file) its message.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    pub rule: &'a str,
    pub path: &'a Path,
    pub pointer: &'a str,
    pub message: &'a str,
}

/// Writes `findings` as a baseline file at `path` (whole or not at all, see [`crate::output`]).
pub fn write<'a>(path: &Path, findings: impl Iterator<Item = Key<'a>>) -> std::io::Result<()> {
    let dir = folder_of(path);
    let file = BaselineFile {
        version: VERSION,
        findings: findings
            .map(|f| Entry {
                rule: f.rule.to_string(),
                file: path_in(f.path, &dir),
                pointer: f.pointer.to_string(),
                message: f.message.to_string(),
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
            "format version {version} is not supported ({VERSION} is); write it anew with \
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

/// What a run looked at, which says whether an entry no finding matched is stale.
pub struct Looked<'a> {
    /// Every document linted: the files each loaded, itself first (absolute paths, or URLs).
    pub documents: &'a [&'a [PathBuf]],
    /// The run had no input error.
    pub complete: bool,
    /// Whether the run ran a rule.
    pub ran: &'a dyn Fn(&str) -> bool,
}

/// Judges a run's `findings` against the baseline: for each, whether the baseline knows it (it
/// is then silenced, not shown), and how the baseline matched as a whole.
///
/// An entry is stale when the run looked for it and it is gone, or when its file is gone. The
/// run looked for it when it linted without an input error, ran its rule, and either linted its
/// file as a document, or loaded its file as a fragment and found nothing at all of that rule
/// there: a fragment shared by documents this run did not lint (a hook passes only the changed
/// files) may hold entries that only those documents produce, so a partial match there proves
/// nothing.
pub fn judge(
    baseline: &Baseline,
    findings: &[Key<'_>],
    looked: &Looked<'_>,
) -> (Vec<bool>, BaselineOutcome) {
    let key = |rule: &str, file: &str, pointer: &str| format!("{rule}\0{file}\0{pointer}");
    let mut recorded: HashMap<String, usize> = HashMap::new();
    for e in &baseline.entries {
        *recorded
            .entry(key(&e.rule, &e.file, &e.pointer))
            .or_default() += 1;
    }
    let mut left = recorded.clone();
    // Each file's path as the baseline writes it, worked out once per file.
    let mut in_baseline: HashMap<PathBuf, String> = HashMap::new();
    let mut as_written = |path: &Path| {
        in_baseline
            .entry(path.to_path_buf())
            .or_insert_with(|| path_in(path, &baseline.dir))
            .clone()
    };
    let mut matched = 0;
    let known: Vec<bool> = findings
        .iter()
        .map(|f| {
            let file = as_written(f.path);
            match left.get_mut(&key(f.rule, &file, f.pointer)) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    matched += 1;
                    true
                }
                _ => false,
            }
        })
        .collect();
    let mut documents = HashSet::new();
    let mut loaded = HashSet::new();
    for d in looked.documents {
        for (i, path) in d.iter().enumerate() {
            let file = as_written(path);
            if i == 0 {
                documents.insert(file.clone());
            }
            loaded.insert(file);
        }
    }
    let complete = looked.complete;
    let mut exists: HashMap<String, bool> = HashMap::new();
    let mut gone = |file: &str| -> bool {
        if crate::fetch::is_http(file) || loaded.contains(file) {
            return false;
        }
        *exists
            .entry(file.to_string())
            .or_insert_with(|| !baseline.dir.join(file).exists())
    };
    // Keys no finding matched, judged before the stale ones are counted off below.
    let unmatched: HashSet<String> = recorded
        .iter()
        .filter(|(k, n)| left.get(*k) == Some(n))
        .map(|(k, _)| k.clone())
        .collect();
    let mut stale = Vec::new();
    let (mut local, mut missing) = (0, 0);
    for e in &baseline.entries {
        let k = key(&e.rule, &e.file, &e.pointer);
        let is_gone = gone(&e.file);
        if !crate::fetch::is_http(&e.file) {
            local += 1;
            missing += usize::from(is_gone);
        }
        let looked = complete
            && (looked.ran)(&e.rule)
            && (documents.contains(&e.file)
                || (loaded.contains(&e.file) && unmatched.contains(&k)));
        if !is_gone && !looked {
            continue;
        }
        // The entries of a key beyond those that matched are the stale ones.
        if let Some(n) = left.get_mut(&k)
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
    let outcome = BaselineOutcome {
        file: baseline.name.clone(),
        entries: baseline.entries.len(),
        matched,
        all_missing: local > 0 && missing == local,
        names_a_linted_file: baseline.entries.iter().any(|e| loaded.contains(&e.file)),
        stale,
    };
    (known, outcome)
}

/// What a user is told of the baseline on standard error. A warning when nothing matched and
/// none of the files it names exists (the baseline or the specs moved); a note when nothing
/// matched and it names none of the files linted (a baseline of another folder, or files that
/// had no findings when it was written); and the stale entries, which `--write-baseline` would
/// drop.
pub fn notes(outcome: &BaselineOutcome, new_findings: usize) -> String {
    const SHOWN: usize = 5;
    let mut out = String::new();
    let nothing_matched = outcome.matched == 0 && new_findings > 0 && outcome.entries > 0;
    let entries = || {
        plural(
            outcome.entries,
            "its entry names",
            &format!("its {} entries name", outcome.entries),
        )
        .to_string()
    };
    if nothing_matched && outcome.all_missing {
        let first = outcome.stale.first().map_or("", |e| e.file.as_str());
        return format!(
            "warning: baseline {} matched no finding: none of the files {} exists (the first: \
             {first}); paths in a baseline are relative to its folder. Rerun --write-baseline if \
             the files moved.\n",
            outcome.file,
            entries(),
        );
    }
    if nothing_matched && !outcome.names_a_linted_file {
        out.push_str(&format!(
            "note: baseline {} matched no finding: {} none of the files linted here (paths in a \
             baseline are relative to its folder).\n",
            outcome.file,
            entries(),
        ));
    }
    let n = outcome.stale.len();
    if n > 0 {
        let place = |e: &StaleEntry| {
            let at = if e.pointer.is_empty() {
                "the top"
            } else {
                &e.pointer
            };
            format!("`{}` in {} at {at}", e.rule, e.file)
        };
        let mut listed: Vec<String> = outcome.stale.iter().take(SHOWN).map(place).collect();
        if n > SHOWN {
            listed.push(format!("and {} more", n - SHOWN));
        }
        out.push_str(&format!(
            "note: {n} baseline {} stale (no such finding any more): {}; rerun --write-baseline \
             to drop {}.\n",
            plural(n, "entry is", "entries are"),
            listed.join(", "),
            plural(n, "it", "them"),
        ));
    }
    out
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
