//! `duplicate-key`: a mapping with the same key twice; most tools silently keep only one.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::resolve::{FileId, Location};

pub const RULE: Rule = Rule {
    id: RuleId::DuplicateKey,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (i, file) in cx.bundle.files.iter().enumerate() {
        let id = FileId(i as u32);
        for dup in &file.duplicates {
            let first = file.source.line_col(dup.first.start as usize);
            let second = file.source.line_col(dup.second.start as usize);
            // On one line (minified JSON) the line alone does not say which.
            let where_first = if first.line == second.line {
                format!("line {}, column {}", first.line, first.column)
            } else {
                format!("line {}", first.line)
            };
            out.push(
                cx.diagnostic(
                    &RULE,
                    Location {
                        file: id,
                        span: dup.second,
                    },
                    format!(
                        "key `{}` appears twice in this mapping (first at {where_first})",
                        dup.key
                    ),
                )
                .with_label(
                    Location {
                        file: id,
                        span: dup.first,
                    },
                    "first defined here",
                )
                .with_help("remove one of them: tools disagree on which one wins"),
            );
        }
    }
}
