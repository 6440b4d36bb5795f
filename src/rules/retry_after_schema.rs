//! `retry-after-schema`: a Retry-After header that is neither delay-seconds nor an HTTP-date:
//! another type, or a string in an ISO 8601 form (RFC 3339 `date-time`, a `PT30S` duration).

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: RuleId::RetryAfterSchema,
    check,
};

/// An ISO 8601 duration with a time part such as `PT30S` or `P1DT2H` (a `Retry-After` is
/// seconds, so a date-only `P1D` is not looked for), or a description naming ISO 8601 or RFC 3339.
static ISO_DURATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)ISO[ -]?8601(?-u:\b)|(?-u:\b)RFC[ -]?3339(?-u:\b)|(?-u:\b)P(?:[0-9]+[YMWD])*T(?:[0-9]+(?:\.[0-9]+)?[HMS])+(?-u:\b)")
        .expect("valid regex")
});

/// What is wrong with a Retry-After schema, if anything.
enum Problem {
    /// A type other than integer or string: `number`, `boolean`, `object`.
    Type(String),
    /// A string in another format than an HTTP-date: `date-time`, `duration`, ISO 8601 prose.
    Format(String),
}

fn problem(schema: crate::resolve::At<'_>) -> Option<(Problem, crate::resolve::Location)> {
    let ty = schema.node.get("type")?;
    let at_type = schema.key_location("type")?;
    // OpenAPI 3.1 lists types: `[integer, string]` is delay-seconds or a date, `null` aside.
    let types: Vec<&str> = match ty.as_str() {
        Some(t) => vec![t],
        None if !ty.items().is_empty() => ty.items().iter().filter_map(Node::as_str).collect(),
        None => return Some((Problem::Type("(not a name)".into()), at_type)),
    };
    if let Some(other) = types
        .iter()
        .find(|t| !matches!(**t, "integer" | "string" | "null"))
    {
        return Some((Problem::Type((*other).to_string()), at_type));
    }
    if !types.contains(&"string") {
        return None;
    }
    if let Some(format) = schema.node.get("format").and_then(Node::as_str)
        && matches!(format, "date-time" | "duration" | "date")
    {
        let at = schema.key_location("format").unwrap_or(at_type);
        return Some((Problem::Format(format!("`format: {format}`")), at));
    }
    for key in ["description", "example", "pattern"] {
        if let Some(text) = schema.node.get(key).and_then(Node::scalar_text)
            && let Some(m) = ISO_DURATION.find(text)
        {
            let at = schema.key_location(key).unwrap_or(at_type);
            return Some((Problem::Format(format!("{key} `{}`", m.as_str())), at));
        }
    }
    None
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for op in &cx.api.operations {
        for r in &op.responses {
            let Some(header) = r.header("Retry-After") else {
                continue;
            };
            let Some(schema) = header.schema.map(|s| cx.bundle.deref(s)) else {
                continue;
            };
            let Some((problem, at)) = problem(schema) else {
                continue;
            };
            if !seen.insert(schema.location()) {
                continue;
            }
            let (message, help) = match problem {
                Problem::Type(ty) => (
                    format!(
                        "Retry-After header schema is `{ty}`: the header is delay-seconds (an \
                         integer) or an HTTP-date (a string)"
                    ),
                    "use `type: integer` (seconds to wait), or `type: string` for an HTTP-date",
                ),
                Problem::Format(what) => (
                    format!(
                        "Retry-After header is a string with {what}: its date form is an \
                         HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`), not ISO 8601, and its other \
                         form is seconds; clients generated from this schema will misread it"
                    ),
                    "use `type: integer` (seconds to wait), or `type: string` with no format (or \
                     `format: http-date`) for an HTTP-date",
                ),
            };
            out.push(
                cx.diagnostic(&RULE, at, message)
                    .with_operation(op)
                    .with_help(help),
            );
        }
    }
}
