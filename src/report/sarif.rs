//! SARIF 2.1.0 for code-scanning tools: one run, every rule described from its doc, results
//! relative to `%SRCROOT%` (the working directory), fingerprints stable under line shifts, and
//! suppressed findings present with their `suppressions`.

use serde::Serialize;

use super::{Change, Finding, Report, SuppressionKind};
use crate::diagnostic::Severity;
use crate::rules::RULES;

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    original_uri_base_ids: serde_json::Value,
    column_kind: &'static str,
    results: Vec<SarifResult>,
    invocations: Vec<Invocation>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    /// The package's `homepage` (Cargo.toml), so a scanner can link an alert to the tool.
    information_uri: &'static str,
    rules: Vec<RuleDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    /// The rule's page on the web, which `idemlint lsp` links each diagnostic to as well.
    help_uri: String,
    default_configuration: Configuration,
    properties: Properties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Properties {
    tags: Vec<String>,
}

#[derive(Serialize)]
struct ResultProperties {
    evidence: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<SarifLocation>,
    partial_fingerprints: serde_json::Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<SarifSuppression>,
    /// The rule's fix, when it proposes one (SARIF 3.27.30).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
    /// Against a base (`check --base`, SARIF 3.27.24): `new`, `unchanged`, or `absent` for a
    /// finding of the base the change fixed.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
    /// A contract-change finding's place in the base.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation>,
    /// A runtime finding's requests and responses (`idemlint probe`), in the property bag.
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation {
    id: u32,
    physical_location: PhysicalLocation,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
    /// Whether the fix may be applied without asking (`safe`) or changes the contract
    /// (`unsafe`): SARIF has no field for it.
    properties: FixProperties,
}

#[derive(Serialize)]
struct FixProperties {
    applicability: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    /// An empty region inserts.
    deleted_region: Region,
    inserted_content: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    /// Relative paths resolve against `%SRCROOT%`; absolute ones are `file:` URIs of their own.
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
struct SarifSuppression {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    justification: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    locations: Vec<SarifLocation>,
}

/// GitHub code scanning's limit of results in one run.
const MAX_RESULTS: usize = 25_000;

/// Longest message text kept; code-scanning UIs show a line or two.
const MAX_MESSAGE: usize = 1_000;

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative URI reference for a path as shown to the user.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn location(file: &str, line: u32, column: u32, end_line: u32, end_column: u32) -> SarifLocation {
    SarifLocation {
        physical_location: PhysicalLocation {
            artifact_location: artifact(file),
            region: Region {
                start_line: line,
                start_column: column,
                end_line,
                // SARIF regions are non-empty; an empty span still marks one column.
                end_column: if end_line == line {
                    end_column.max(column + 1)
                } else {
                    end_column
                },
            },
        },
    }
}

/// The file `file` (as shown to the user) as SARIF locates it.
fn artifact(file: &str) -> ArtifactLocation {
    if crate::fetch::is_http(file) {
        // A document fetched with --allow-remote-refs keeps its own URL.
        ArtifactLocation {
            uri: file.to_string(),
            uri_base_id: None,
        }
    } else if std::path::Path::new(file).is_absolute() {
        ArtifactLocation {
            uri: format!("file://{}", uri(file)),
            uri_base_id: None,
        }
    } else {
        ArtifactLocation {
            uri: uri(file),
            uri_base_id: Some("%SRCROOT%"),
        }
    }
}

/// A finding's fix as SARIF writes it: one artifact change a file, in the order the files are
/// first edited, each edit a replacement of its region (empty to insert).
fn fixes(f: &Finding) -> Vec<SarifFix> {
    let Some(fix) = f.fix.as_ref().filter(|fix| !fix.edits.is_empty()) else {
        // (SARIF has no fix without a change.)
        return Vec::new();
    };
    let mut changes: Vec<ArtifactChange> = Vec::new();
    let mut files: Vec<&std::path::Path> = Vec::new();
    for e in &fix.edits {
        let at = match files.iter().position(|f| *f == e.source.path) {
            Some(at) => at,
            None => {
                files.push(&e.source.path);
                changes.push(ArtifactChange {
                    artifact_location: artifact(e.file()),
                    replacements: Vec::new(),
                });
                changes.len() - 1
            }
        };
        changes[at].replacements.push(Replacement {
            deleted_region: Region {
                start_line: e.line,
                start_column: e.column,
                end_line: e.end_line,
                end_column: e.end_column,
            },
            inserted_content: Text {
                text: e.text.clone(),
            },
        });
    }
    vec![SarifFix {
        description: Text {
            text: fix.title.clone(),
        },
        artifact_changes: changes,
        properties: FixProperties {
            applicability: fix.applicability.code(),
        },
    }]
}

/// The section `## <title>` of a doc body, without its heading.
fn section<'a>(body: &'a str, title: &str) -> &'a str {
    let heading = format!("## {title}\n");
    let Some(start) = body.find(&heading) else {
        return "";
    };
    let rest = &body[start + heading.len()..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].trim()
}

fn result(f: &Finding, suppression: Option<SarifSuppression>) -> SarifResult {
    SarifResult {
        rule_id: f.rule.as_str(),
        rule_index: f.rule as usize,
        level: level(f.severity),
        message: Text {
            text: truncate(&f.message),
        },
        locations: vec![location(
            f.file(),
            f.line,
            f.column,
            f.end_line,
            f.end_column,
        )],
        partial_fingerprints: serde_json::json!({ "idemlint/v1": f.fingerprint }),
        suppressions: suppression.into_iter().collect(),
        fixes: fixes(f),
        baseline_state: f.change.map(|c| match c {
            Change::New => "new",
            Change::Unchanged => "unchanged",
            Change::Fixed => "absent",
        }),
        related_locations: f
            .before
            .iter()
            .map(|p| RelatedLocation {
                id: 1,
                physical_location: location(&p.file, p.line, p.column, p.line, p.column + 1)
                    .physical_location,
                message: Text {
                    text: "before the change".to_string(),
                },
            })
            .collect(),
        properties: f.evidence.as_ref().map(|e| ResultProperties {
            evidence: e.clone(),
        }),
    }
}

/// Streams the log to `out`: a log of many results is never held whole in memory.
pub fn write(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let root = std::env::current_dir()
        .map(|d| {
            let mut s = uri(&d.to_string_lossy());
            if !s.starts_with('/') {
                s.insert(0, '/');
            }
            format!("file://{s}/")
        })
        .unwrap_or_else(|_| "file:///".to_string());
    let rules = RULES
        .iter()
        .map(|r| {
            let m = r.id.meta();
            RuleDescriptor {
                id: m.id,
                name: m.id.split('-').map(capitalise).collect(),
                short_description: Text {
                    text: m.summary.clone(),
                },
                full_description: Text {
                    text: section(m.body, "What it checks").to_string(),
                },
                help: Help {
                    text: m.body.to_string(),
                    markdown: m.body.to_string(),
                },
                help_uri: r.id.doc_url(),
                default_configuration: Configuration {
                    level: level(m.severity),
                },
                properties: Properties {
                    tags: vec![m.category.clone(), "idempotency".to_string()],
                },
            }
        })
        .collect();
    let mut results: Vec<SarifResult> = report
        .findings
        .iter()
        .chain(report.base.iter().flat_map(|b| &b.fixed))
        .map(|f| result(f, None))
        .collect();
    results.extend(report.suppressed.iter().map(|s| {
        result(
            &s.finding,
            Some(SarifSuppression {
                kind: match s.kind {
                    SuppressionKind::InSource => "inSource",
                    SuppressionKind::Baseline => "external",
                },
                justification: s.reason.clone(),
            }),
        )
    }));
    // GitHub code scanning takes at most 25,000 results a run: keep the most severe ones, and
    // say that the rest were left out.
    let mut notifications: Vec<Notification> = Vec::new();
    if results.len() > MAX_RESULTS {
        let total = results.len();
        results.sort_by_key(|r| match r.level {
            "error" => 0,
            "warning" => 1,
            _ => 2,
        });
        results.truncate(MAX_RESULTS);
        notifications.push(Notification {
            level: "warning",
            message: Text {
                text: format!(
                    "{total} results; the {MAX_RESULTS} most severe are reported (code scanning takes no more)"
                ),
            },
            locations: Vec::new(),
        });
    }
    let notifications_for_errors: Vec<Notification> = report
        .errors
        .iter()
        .map(|e| Notification {
            level: "error",
            message: Text {
                text: e.message.clone(),
            },
            locations: vec![location(&e.file, e.line, e.column, e.line, e.column + 1)],
        })
        .collect();
    notifications.extend(notifications_for_errors);
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "idemlint",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: env!("CARGO_PKG_HOMEPAGE"),
                    rules,
                },
            },
            original_uri_base_ids: serde_json::json!({ "%SRCROOT%": { "uri": root } }),
            column_kind: "unicodeCodePoints",
            results,
            invocations: vec![Invocation {
                execution_successful: report.errors.is_empty(),
                tool_execution_notifications: notifications,
            }],
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

fn truncate(text: &str) -> String {
    if text.len() <= MAX_MESSAGE {
        return text.to_string();
    }
    let mut end = MAX_MESSAGE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// `missing-idempotency-key` → `MissingIdempotencyKey` for SARIF's `name`.
fn capitalise(word: &str) -> String {
    let mut c = word.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
