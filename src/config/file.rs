//! `.idemlint.yaml`: read with our own YAML loader, so a mistake is reported at its line and
//! column, with a did-you-mean for misspelt keys, rule ids and profiles.

use crate::limits::Limits;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::scalar;
use super::{Settings, apply_profile};
use crate::catalogue::RuleId;
use crate::catalogue::Severity;
use crate::files::Files;
use crate::inputs::Excludes;
use crate::source::{Node, ScalarKind, SourceFile, Span};
use crate::suggest::closest;

/// The names a configuration file may have, looked for in this order.
pub const CONFIG_NAMES: [&str; 2] = [".idemlint.yaml", ".idemlint.yml"];

pub(super) const TOP_KEYS: [&str; 11] = [
    "extends",
    "exclude",
    "rules",
    "key-headers",
    "key-fields",
    "read-only-words",
    "money-words",
    "min-ttl",
    "mismatch-status",
    "overrides",
    "fix",
];
pub(super) const OVERRIDE_KEYS: [&str; 3] = ["files", "pointer", "rules"];

/// What a configuration sets a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "off" => Some(Level::Off),
            other => Severity::parse(other).map(Level::On),
        }
    }
}

/// Rule levels for the files matching `files` (globs relative to the configuration's folder),
/// and within them, when `pointer` is given, for findings under that JSON pointer.
#[derive(Debug, Clone)]
pub struct Override {
    pub files: Option<GlobSet>,
    pub pointer: Option<String>,
    pub levels: HashMap<String, Level>,
}

/// A resolved configuration: a profile, then the file's settings, then its overrides.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it came from, if any.
    pub file: Option<PathBuf>,
    /// The folder `overrides` globs are relative to.
    pub dir: PathBuf,
    pub profile: String,
    pub settings: Settings,
    pub levels: HashMap<String, Level>,
    pub overrides: Vec<Override>,
    /// `exclude:`: documents under this configuration not to lint (globs relative to `dir`).
    pub exclude: Option<Excludes>,
}

/// A mistake in a configuration file, where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Config {
    /// The configuration without a file: profile `profile` (default `ietf`).
    pub fn defaults(dir: PathBuf, profile: Option<&str>) -> Result<Config, String> {
        let mut config = Config {
            file: None,
            dir,
            profile: profile.unwrap_or("ietf").to_string(),
            settings: Settings::default(),
            levels: HashMap::new(),
            overrides: Vec::new(),
            exclude: None,
        };
        config.profile =
            apply_profile(&config.profile, &mut config.settings, &mut config.levels)?.to_string();
        Ok(config)
    }

    /// Reads `path`; `profile` (from the command line) wins over the file's `extends`.
    pub fn load(
        files: &dyn Files,
        path: &Path,
        name: &str,
        profile: Option<&str>,
    ) -> Result<Config, Vec<ConfigError>> {
        let source =
            SourceFile::read(files, path, name.to_string(), &Limits::default()).map_err(|e| {
                vec![ConfigError {
                    file: name.to_string(),
                    line: e.line,
                    column: e.column,
                    message: e.message,
                }]
            })?;
        let mut reader = Reader {
            source: &source,
            errors: Vec::new(),
        };
        let root = match source.parse(&Limits::default()) {
            Ok(loaded) => {
                for d in &loaded.duplicates {
                    reader.error(
                        d.second,
                        format!(
                            "`{}` is set twice; the first is at line {}",
                            d.key,
                            source.line_col(d.first.start as usize).line
                        ),
                    );
                }
                loaded.root
            }
            // A file of nothing, or of comments only, is no document: no settings, as a file
            // holding only `~` is (and as ruff and ESLint read an empty configuration).
            Err(e) if e.message.starts_with("empty document") => {
                Node::scalar(Span::empty_at(0), "", ScalarKind::Null)
            }
            Err(e) => {
                reader.error(e.span, e.message);
                return Err(reader.errors);
            }
        };
        // Globs are relative to the file's folder, made absolute as linted paths are.
        let dir = files
            .canonicalize(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| {
                path.parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            });
        let config = reader.config(&root, dir, profile, path);
        if reader.errors.is_empty() {
            Ok(config)
        } else {
            // In the order of the file, whatever order they were found in (a key set twice is
            // found while parsing, before the rest).
            reader.errors.sort_by_key(|e| (e.line, e.column));
            Err(reader.errors)
        }
    }

    /// Whether `exclude:` leaves the document at `file` (absolute) out.
    pub fn excludes(&self, file: &Path) -> bool {
        self.exclude.as_ref().is_some_and(|e| e.matches(file))
    }

    /// The level the configuration gives `rule` for a finding in `file` (absolute) at
    /// `pointer`; `None` leaves the finding's own severity.
    pub fn level(&self, rule: &str, file: &Path, pointer: &str) -> Option<Level> {
        let mut level = self.levels.get(rule).copied();
        let relative = file.strip_prefix(&self.dir).unwrap_or(file);
        for o in &self.overrides {
            let file_matches = o.files.as_ref().is_none_or(|g| g.is_match(relative));
            let pointer_matches = o.pointer.as_deref().is_none_or(|p| {
                pointer == p || pointer.starts_with(&format!("{}/", p.trim_end_matches('/')))
            });
            if file_matches
                && pointer_matches
                && let Some(l) = o.levels.get(rule)
            {
                level = Some(*l);
            }
        }
        level
    }
}

/// The nearest configuration file at or above `dir`. The search stops at a repository's root
/// (a folder holding `.git`), so a project never picks up a stranger's configuration.
pub fn find_config_file(files: &dyn Files, dir: &Path) -> Option<PathBuf> {
    let mut dir = Some(dir);
    while let Some(d) = dir {
        for name in CONFIG_NAMES {
            let candidate = d.join(name);
            if files.metadata(&candidate).is_ok_and(|m| m.is_file()) {
                return Some(candidate);
            }
        }
        if files.metadata(&d.join(".git")).is_ok() {
            return None;
        }
        dir = d.parent();
    }
    None
}

struct Reader<'s> {
    source: &'s SourceFile,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn error(&mut self, span: Span, message: String) {
        let at = self.source.line_col(span.start as usize);
        self.errors.push(ConfigError {
            file: self.source.name.clone(),
            line: at.line,
            column: at.column,
            message,
        });
    }

    fn unknown(&mut self, what: &str, word: &str, span: Span, known: &[&str]) {
        let message = match closest(word, known.iter().copied()) {
            Some(near) => format!("unknown {what} `{word}`; did you mean `{near}`?"),
            None => format!(
                "unknown {what} `{word}`; expected one of: {}",
                known.join(", ")
            ),
        };
        self.error(span, message);
    }

    fn config(&mut self, root: &Node, dir: PathBuf, profile: Option<&str>, path: &Path) -> Config {
        let mut config = Config {
            file: Some(path.to_path_buf()),
            dir,
            profile: "ietf".to_string(),
            settings: Settings::default(),
            levels: HashMap::new(),
            overrides: Vec::new(),
            exclude: None,
        };
        let entries = match root.as_map() {
            Some(entries) => entries,
            // An empty file, or one holding only `~`: no settings, the profile's defaults.
            None if root.is_null() => &[],
            None => {
                self.error(
                    root.span,
                    "the configuration must be a mapping of settings".to_string(),
                );
                return config;
            }
        };
        for e in entries {
            if !TOP_KEYS.contains(&&*e.key.text) {
                self.unknown("setting", &e.key.text, e.key.span, &TOP_KEYS);
            }
        }
        // The profile first: the file's own settings refine it. `extends` is checked even when
        // `--profile` wins over it, so a file `check` accepts does not depend on the flag.
        let extends = match root.get_entry("extends") {
            None => None,
            Some(e) => match e.value.as_str() {
                Some(s) => match super::profile_name(s) {
                    Ok(_) => Some((s.to_string(), e.value.span)),
                    Err(message) => {
                        self.error(e.value.span, message);
                        None
                    }
                },
                None => {
                    self.error(e.value.span, "`extends` takes a profile name".to_string());
                    None
                }
            },
        };
        let name = match (profile, extends) {
            (Some(p), _) => Some((p.to_string(), None)),
            (None, Some((s, span))) => Some((s, Some(span))),
            (None, None) => None,
        };
        if let Some((name, span)) = name {
            match apply_profile(&name, &mut config.settings, &mut config.levels) {
                Ok(canonical) => config.profile = canonical.to_string(),
                Err(message) => self.error(span.unwrap_or_default(), message),
            }
        }
        if let Some(rules) = root.get("rules") {
            let levels = self.levels(rules);
            config.levels.extend(levels);
        }
        if let Some(exclude) = root.get("exclude") {
            config.exclude = self.exclude(exclude, &config.dir);
        }
        let s = &mut config.settings;
        for (key, target) in [
            ("key-headers", &mut s.key_headers),
            ("key-fields", &mut s.key_fields),
            ("read-only-words", &mut s.read_only_words),
            ("money-words", &mut s.money_words),
        ] {
            if let Some(list) = root.get(key) {
                match list.as_seq() {
                    Some(items) => {
                        let mut words = Vec::new();
                        for item in items {
                            match item.as_str() {
                                Some(t) if !t.is_empty() => words.push(t.to_string()),
                                _ => self.error(
                                    item.span,
                                    format!(
                                        "`{key}` lists words (non-empty strings), not {}",
                                        describe_name(item)
                                    ),
                                ),
                            }
                        }
                        *target = words;
                    }
                    None => self.error(
                        list.span,
                        format!("`{key}` takes a list, e.g. [{}]", example(key)),
                    ),
                }
            }
        }
        if let Some(ttl) = root.get("min-ttl") {
            match min_ttl(ttl) {
                Some(secs) => config.settings.min_ttl_seconds = secs,
                None => self.error(
                    ttl.span,
                    format!(
                        "`min-ttl` takes whole seconds or a duration like `24h`, `90m`, `1 day` \
                         or `1d 12h`, not {}",
                        describe(ttl)
                    ),
                ),
            }
        }
        if let Some(status) = root.get("mismatch-status") {
            match mismatch_status(status) {
                Some(t) => config.settings.mismatch_status = t,
                None => self.error(
                    status.span,
                    format!(
                        "`mismatch-status` takes an HTTP status from {} to {}, like 422, not {}",
                        scalar::STATUS_MIN,
                        scalar::STATUS_MAX,
                        describe(status)
                    ),
                ),
            }
        }
        if let Some(fix) = root.get("fix") {
            self.fix(fix, &mut config.settings);
        }
        if let Some(overrides) = root.get("overrides") {
            match overrides.as_seq() {
                Some(items) => {
                    for item in items {
                        if let Some(o) = self.override_(item) {
                            config.overrides.push(o);
                        }
                    }
                }
                None => self.error(
                    overrides.span,
                    "`overrides` takes a list of { files, pointer, rules }".to_string(),
                ),
            }
        }
        config
    }

    /// `fix: {safe: [missing-idempotency-key]}`: rules whose unsafe fixes `--fix` applies as
    /// if safe (a team that has decided every POST takes the key).
    fn fix(&mut self, node: &Node, settings: &mut Settings) {
        let Some(entries) = node.as_map() else {
            self.error(
                node.span,
                "`fix` takes a mapping, e.g. {safe: [missing-idempotency-key]}".to_string(),
            );
            return;
        };
        for e in entries {
            if &*e.key.text != "safe" {
                self.unknown("fix setting", &e.key.text, e.key.span, &["safe"]);
                continue;
            }
            let Some(items) = e.value.as_seq() else {
                self.error(
                    e.value.span,
                    "`fix.safe` takes a list of rule ids, e.g. [missing-idempotency-key]"
                        .to_string(),
                );
                continue;
            };
            let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
            for item in items {
                match item.scalar_text().and_then(RuleId::parse) {
                    Some(rule) => settings.safe_fixes.push(rule),
                    None => {
                        let text = item.scalar_text().unwrap_or("this");
                        self.unknown("rule", text, item.span, &ids);
                    }
                }
            }
        }
    }

    fn levels(&mut self, rules: &Node) -> HashMap<String, Level> {
        let mut out = HashMap::new();
        let Some(entries) = rules.as_map() else {
            self.error(
                rules.span,
                "`rules` maps rule ids to off, info, warning or error".to_string(),
            );
            return out;
        };
        let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        for e in entries {
            if !ids.contains(&&*e.key.text) {
                self.unknown("rule", &e.key.text, e.key.span, &ids);
                continue;
            }
            match e.value.scalar_text().and_then(Level::parse) {
                Some(level) => {
                    out.insert(e.key.text.to_string(), level);
                }
                None => self.error(
                    e.value.span,
                    format!(
                        "rule `{}` takes off, info, warning or error, not `{}`",
                        e.key.text,
                        e.value.scalar_text().unwrap_or("this")
                    ),
                ),
            }
        }
        out
    }

    /// `exclude: [legacy/**, "*.draft.yaml"]`: globs relative to the configuration's folder.
    fn exclude(&mut self, node: &Node, dir: &Path) -> Option<Excludes> {
        let items: Vec<&Node> = match node.as_seq() {
            Some(items) => items.iter().collect(),
            None => vec![node],
        };
        let mut patterns = Vec::new();
        for item in items {
            match item.as_str().filter(|t| !scalar::is_empty_glob(t)) {
                Some(t) => match Excludes::new(dir.to_path_buf(), &[t.to_string()]) {
                    Ok(_) => patterns.push(t.to_string()),
                    Err(e) => self.error(item.span, e),
                },
                None => self.error(
                    item.span,
                    format!(
                        "`exclude` takes glob patterns, e.g. [legacy/**], not {}",
                        describe_name(item)
                    ),
                ),
            }
        }
        Excludes::new(dir.to_path_buf(), &patterns).ok()
    }

    fn override_(&mut self, item: &Node) -> Option<Override> {
        let Some(entries) = item.as_map() else {
            self.error(
                item.span,
                "an override is a mapping of files, pointer and rules".to_string(),
            );
            return None;
        };
        for e in entries {
            if !OVERRIDE_KEYS.contains(&&*e.key.text) {
                self.unknown("override setting", &e.key.text, e.key.span, &OVERRIDE_KEYS);
            }
        }
        let files = match item.get("files") {
            None => None,
            Some(f) => {
                let patterns: Vec<&Node> = match f.as_seq() {
                    Some(items) => items.iter().collect(),
                    None => vec![f],
                };
                // No glob at all would make the override apply nowhere, silently.
                if patterns.is_empty() {
                    self.error(
                        f.span,
                        "`files` needs at least one glob; leave `files` out for every file"
                            .to_string(),
                    );
                }
                let mut builder = GlobSetBuilder::new();
                for p in patterns {
                    let pattern = p
                        .as_str()
                        .filter(|t| !scalar::is_empty_glob(t))
                        .map(|t| t.strip_prefix("./").unwrap_or(t));
                    let glob = pattern.map(|t| GlobBuilder::new(t).literal_separator(true).build());
                    match glob {
                        Some(Ok(glob)) => {
                            builder.add(glob);
                        }
                        Some(Err(e)) => self.error(p.span, format!("bad glob: {e}")),
                        None => self.error(
                            p.span,
                            format!(
                                "`files` takes glob patterns, e.g. ['legacy/**'], not {}",
                                describe_name(p)
                            ),
                        ),
                    }
                }
                builder.build().ok()
            }
        };
        let pointer = match item.get("pointer") {
            None => None,
            Some(p) => match p.as_str() {
                Some(s) if s.starts_with('/') => Some(s.to_string()),
                _ => {
                    self.error(
                        p.span,
                        "`pointer` takes a JSON pointer like `/paths/~1legacy`".to_string(),
                    );
                    None
                }
            },
        };
        let levels = match item.get("rules") {
            Some(r) => self.levels(r),
            None => {
                self.error(item.span, "an override needs `rules`".to_string());
                HashMap::new()
            }
        };
        Some(Override {
            files,
            pointer,
            levels,
        })
    }
}

/// The seconds `min-ttl` stands for: a YAML number of whole seconds (`3600`, also `3600.0`, as a
/// schema validator cannot tell them apart), or a string matching the duration pattern.
fn min_ttl(node: &Node) -> Option<u64> {
    match scalar::number(node) {
        Some(n) => n
            .whole()
            .filter(|&s| s >= 0)
            .map(|s| u64::try_from(s).unwrap_or(u64::MAX)),
        None => scalar::parse_duration(node.as_str()?),
    }
}

/// `mismatch-status` as the three digits the rules compare: a YAML number from 100 to 599
/// (`0422` is YAML's 422, and 422 to a schema validator too), or a string of three digits.
fn mismatch_status(node: &Node) -> Option<String> {
    match scalar::number(node) {
        Some(n) => n
            .whole()
            .filter(|s| (scalar::STATUS_MIN as i128..=scalar::STATUS_MAX as i128).contains(s))
            .map(|s| s.to_string()),
        None => {
            let text = node.as_str()?;
            let status: i64 = text.parse().ok()?;
            (text.len() == 3
                && text.bytes().all(|b| b.is_ascii_digit())
                && (scalar::STATUS_MIN..=scalar::STATUS_MAX).contains(&status))
            .then(|| text.to_string())
        }
    }
}

/// A value as an error message names it: `` `soon` ``, `the number 1`, `a list`.
fn describe(node: &Node) -> String {
    match node.as_scalar() {
        Some(s) => match s.kind {
            ScalarKind::Str if s.text.is_empty() => "an empty string".to_string(),
            ScalarKind::Str => format!("`{}`", s.text),
            ScalarKind::Int | ScalarKind::Float => format!("the number {}", s.text),
            ScalarKind::Bool => format!("the boolean {}", s.text),
            ScalarKind::Null => "nothing (null)".to_string(),
        },
        None if node.as_seq().is_some() => "a list".to_string(),
        None => "a mapping".to_string(),
    }
}

/// [`describe`], with a word on how to write text that YAML reads as a number or a boolean,
/// or on why a glob is refused.
fn describe_name(node: &Node) -> String {
    match node.as_scalar().map(|s| (s.kind, &*s.text)) {
        Some((ScalarKind::Int | ScalarKind::Float | ScalarKind::Bool, text)) => {
            format!("{}; quote it ('{text}') to mean the text", describe(node))
        }
        Some((ScalarKind::Str, text)) if !text.is_empty() && scalar::is_empty_glob(text) => {
            format!("{}, which matches no file", describe(node))
        }
        _ => describe(node),
    }
}

fn example(key: &str) -> &'static str {
    match key {
        "key-headers" => "Idempotency-Key",
        "key-fields" => "idempotency_key",
        "read-only-words" => "search, validate",
        _ => "payment, refund",
    }
}
