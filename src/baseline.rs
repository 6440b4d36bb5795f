//! Baselines: record today's findings, then report only new ones. Findings are matched by rule
//! and fingerprint (rule, file and JSON pointer), so a baseline survives edits that move lines.

use std::collections::HashSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::report::{Report, Suppressed, SuppressionKind};

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    rule: String,
    fingerprint: String,
    /// For the reader of the file; not matched.
    file: String,
    message: String,
}

/// The findings of `report` as a baseline file, written whole or not at all.
pub fn write(path: &Path, report: &Report) -> std::io::Result<()> {
    let file = BaselineFile {
        version: 1,
        findings: report
            .findings
            .iter()
            .map(|f| Entry {
                rule: f.rule.to_string(),
                fingerprint: f.fingerprint.clone(),
                file: f.file().to_string(),
                message: f.message.clone(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("serialises");
    text.push('\n');
    crate::output::write_to(path, text.as_bytes())
}

/// The (rule, fingerprint) pairs of a baseline file.
pub fn load(path: &Path) -> Result<HashSet<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| crate::source::io_message(&e))?;
    let file: BaselineFile =
        serde_json::from_str(&text).map_err(|e| format!("not an idemlint baseline: {e}"))?;
    if file.version != 1 {
        return Err(format!(
            "baseline version {} is not supported (1 is)",
            file.version
        ));
    }
    Ok(file
        .findings
        .into_iter()
        .map(|e| (e.rule, e.fingerprint))
        .collect())
}

/// Moves the findings the baseline knows into `report.suppressed`.
pub fn apply(report: &mut Report, known: &HashSet<(String, String)>) {
    let findings = std::mem::take(&mut report.findings);
    for f in findings {
        if known.contains(&(f.rule.to_string(), f.fingerprint.clone())) {
            report.suppressed.push(Suppressed {
                finding: f,
                kind: SuppressionKind::Baseline,
                reason: None,
            });
        } else {
            report.findings.push(f);
        }
    }
}
