//! The version-1 JSON report of DESIGN.md. Field names are a contract: extend, never rename.

use serde::Serialize;

use super::Report;

#[derive(Serialize)]
struct Json<'a> {
    version: u32,
    tool: Tool,
    findings: Vec<JsonFinding<'a>>,
    errors: Vec<JsonError<'a>>,
    /// Operations no rule looked at: a part they need sits behind a `$ref` that was not loaded.
    unchecked: Vec<JsonUnchecked<'a>>,
    /// Named fragments and the documents linted for them.
    fragments: Vec<JsonFragment<'a>>,
    /// Documents not linted because their configuration has errors.
    skipped: Vec<JsonSkipped<'a>>,
    /// With `--baseline`: how it matched, and its entries that matched nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<JsonBaseline<'a>>,
    /// With `--base`: the revision compared with and the counts of new, fixed and unchanged
    /// findings (the fixed ones are among `findings`, marked).
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<JsonBase<'a>>,
    /// With `--fix`: how many fixes were applied, in how many files, and how many findings
    /// left still carry a fix (unsafe ones, without `--unsafe-fixes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    fixes: Option<JsonFixes>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonFixes {
    applied: usize,
    files: usize,
    remaining_fixable: usize,
    /// Fixes were still being found when the passes ran out.
    unfinished: bool,
}

#[derive(Serialize)]
struct JsonBaseline<'a> {
    file: &'a str,
    entries: usize,
    matched: usize,
    stale: Vec<JsonStale<'a>>,
}

#[derive(Serialize)]
struct JsonStale<'a> {
    rule: &'a str,
    /// Relative to the baseline's folder.
    file: &'a str,
    pointer: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonUnchecked<'a> {
    operation: &'a str,
    file: &'a str,
    line: u32,
    column: u32,
    reason: &'a str,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'a str,
    severity: &'a str,
    message: &'a str,
    file: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    pointer: &'a str,
    operation: Option<JsonOperation<'a>>,
    fingerprint: &'a str,
    /// The change that resolves the finding, when its rule proposes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
    /// Why the rule, which fixes findings like this one, has none for it (the place is shared
    /// through a YAML anchor, the file was fetched from a URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    no_fix: Option<&'a str>,
    /// Against a base (`check --base`): `new`, `fixed` (a finding of the base the change
    /// removed) or `unchanged`.
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<&'static str>,
    /// A contract-change finding's place in the base, and in the version linted.
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<JsonPlace<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<JsonPlace<'a>>,
    /// A runtime finding's requests and responses (`idemlint probe`).
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonPlace<'a> {
    file: &'a str,
    line: u32,
    column: u32,
}

/// With `--base`: what the run was compared with, and the counts.
#[derive(Serialize)]
struct JsonBase<'a> {
    #[serde(rename = "ref")]
    name: &'a str,
    commit: &'a str,
    new: usize,
    fixed: usize,
    unchanged: usize,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    /// What it does: "Declare a 409 response".
    title: &'a str,
    /// `safe` (applied by `--fix`) or `unsafe` (only with `--unsafe-fixes`).
    applicability: &'static str,
    edits: Vec<JsonEdit<'a>>,
}

/// The text of `file` from `line`:`column` up to (not including) `end_line`:`end_column`
/// replaced by `content`; an empty range inserts. Lines and columns as the finding's.
#[derive(Serialize)]
struct JsonEdit<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    content: &'a str,
}

#[derive(Serialize)]
struct JsonOperation<'a> {
    method: &'a str,
    path: &'a str,
    operation_id: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonError<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    message: &'a str,
    /// `input` or `configuration`.
    kind: &'static str,
}

#[derive(Serialize)]
struct JsonFragment<'a> {
    file: &'a str,
    /// The documents linted because they reach the fragment through `$ref`.
    documents: &'a [String],
}

#[derive(Serialize)]
struct JsonSkipped<'a> {
    file: &'a str,
    reason: &'a str,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    operations: usize,
    findings: usize,
    /// Findings that carry a fix (`fix`), safe or not.
    fixable: usize,
    errors: usize,
    suppressed: usize,
    unchecked: usize,
    excluded: usize,
}

fn finding(f: &super::Finding) -> JsonFinding<'_> {
    JsonFinding {
        rule: f.rule.as_str(),
        severity: f.severity.as_str(),
        message: &f.message,
        file: f.file(),
        line: f.line,
        column: f.column,
        end_line: f.end_line,
        end_column: f.end_column,
        pointer: &f.pointer,
        operation: f.operation.as_ref().map(|o| JsonOperation {
            method: o.method,
            path: &o.path,
            operation_id: o.operation_id.as_deref(),
        }),
        fingerprint: &f.fingerprint,
        no_fix: f.no_fix.as_deref(),
        fix: f.fix.as_ref().map(|fix| JsonFix {
            title: &fix.title,
            applicability: fix.applicability.code(),
            edits: fix
                .edits
                .iter()
                .map(|e| JsonEdit {
                    file: e.file(),
                    line: e.line,
                    column: e.column,
                    end_line: e.end_line,
                    end_column: e.end_column,
                    content: &e.text,
                })
                .collect(),
        }),
        change: f.change.map(super::Change::as_str),
        before: f.before.as_deref().map(|p| JsonPlace {
            file: &p.file,
            line: p.line,
            column: p.column,
        }),
        after: f.before.as_ref().map(|_| JsonPlace {
            file: f.file(),
            line: f.line,
            column: f.column,
        }),
        evidence: f.evidence.as_deref(),
    }
}

/// Streams the report to `out`: a report of many findings is never held whole in memory.
pub fn write(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let json = Json {
        version: 1,
        tool: Tool {
            name: "idemlint",
            version: env!("CARGO_PKG_VERSION"),
        },
        findings: report
            .findings
            .iter()
            .chain(report.base.iter().flat_map(|b| &b.fixed))
            .map(finding)
            .collect(),
        errors: report
            .errors
            .iter()
            .map(|e| JsonError {
                file: &e.file,
                line: e.line,
                column: e.column,
                message: &e.message,
                kind: e.kind.code(),
            })
            .collect(),
        fragments: report
            .fragments
            .iter()
            .map(|f| JsonFragment {
                file: &f.file,
                documents: &f.documents,
            })
            .collect(),
        skipped: report
            .skipped
            .iter()
            .map(|d| JsonSkipped {
                file: &d.file,
                reason: &d.reason,
            })
            .collect(),
        unchecked: report
            .documents
            .iter()
            .flat_map(|d| &d.unchecked)
            .map(|u| JsonUnchecked {
                operation: &u.display,
                file: &u.file,
                line: u.line,
                column: u.column,
                reason: &u.reason,
            })
            .collect(),
        fixes: report.fixes.as_ref().map(|f| JsonFixes {
            applied: f.applied,
            files: f.files,
            remaining_fixable: {
                let (safe, unsafe_) = report.fixable();
                safe + unsafe_
            },
            unfinished: f.unfinished,
        }),
        base: report.base.as_ref().map(|b| JsonBase {
            name: &b.name,
            commit: &b.commit,
            new: b.new,
            fixed: b.fixed.len(),
            unchanged: b.unchanged,
        }),
        baseline: report.baseline.as_ref().map(|b| JsonBaseline {
            file: &b.file,
            entries: b.entries,
            matched: b.matched,
            stale: b
                .stale
                .iter()
                .map(|e| JsonStale {
                    rule: &e.rule,
                    file: &e.file,
                    pointer: &e.pointer,
                    message: &e.message,
                })
                .collect(),
        }),
        summary: Summary {
            files: report.files,
            operations: report.operations,
            findings: report.findings.len(),
            fixable: {
                let (safe, unsafe_) = report.fixable();
                safe + unsafe_
            },
            errors: report.errors.len(),
            suppressed: report.suppressed.len(),
            unchecked: report.unchecked(),
            excluded: report.excluded,
        },
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    out.write_all(b"\n")
}
