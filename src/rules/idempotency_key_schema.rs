//! `idempotency-key-schema`: the key's schema does not say it is a bounded string.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Severity};
use crate::fix::key_details;
use crate::source::Node;

/// A length limit stated in prose: "a maximum of 64 characters", "up to 255 characters",
/// "128 character max".
static STATED_LENGTH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?:max(?:imum)?(?: length)?(?: of)?|up to|at most|no more than)(?u:\s)+(?P<n>[0-9]+)(?u:\s)+char|(?-u:\b)(?P<m>[0-9]+)(?u:[\s-])+char(?:acter)?s?(?u:\s)+(?:max|maximum|limit)(?-u:\b)",
    )
    .expect("valid regex")
});

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeySchema,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (op, param) in cx.key_header_definitions() {
        let name = param.name;
        let Some(schema) = param.schema.map(|s| cx.bundle.deref(s)) else {
            continue;
        };
        // Where a missing keyword belongs: the `schema` key, or (2.0) the parameter's name.
        let anchor = param
            .node
            .key_location("schema")
            .or_else(|| param.node.key_location("name"))
            .unwrap_or(param.declared);
        let ty = schema.node.get("type");
        let ty_text = ty.and_then(Node::scalar_text);
        if ty_text != Some("string") {
            let what = match ty {
                Some(t) => format!(
                    "type `{}`",
                    t.scalar_text().map_or_else(
                        || cx.bundle.file(schema.file).source.text[t.span.range()].to_string(),
                        str::to_string
                    )
                ),
                None => "no type".to_string(),
            };
            out.push(
                cx.diagnostic(
                    &RULE,
                    schema.key_location("type").unwrap_or(anchor),
                    format!(
                        "idempotency key `{name}` is not a string ({what}): keys are opaque \
                             strings (draft §2.1)"
                    ),
                )
                .with_operation(op)
                .with_help("declare `type: string`")
                .with_fix_or(key_details::declare_string(
                    &cx.editor, name, schema, param.node,
                )),
            );
        }
        if schema.node.get("maxLength").is_none() {
            // The limit is often written in prose only ("a maximum of 64 characters").
            let stated = [
                param.description,
                schema.node.get("description").and_then(Node::as_str),
            ]
            .into_iter()
            .flatten()
            .find_map(|d| STATED_LENGTH.captures(d))
            .and_then(|c| c.name("n").or(c.name("m")).map(|n| n.as_str().to_string()));
            let help = match &stated {
                Some(n) => format!("the description says {n} characters: add `maxLength: {n}`"),
                None => "add `maxLength` (Stripe allows 255 characters, Adyen 64; a UUID is 36)"
                    .to_string(),
            };
            // A bound stated in prose is documented, only not where tools read it.
            let d = match &stated {
                Some(n) => cx
                    .diagnostic(
                        &RULE,
                        anchor,
                        format!(
                            "idempotency key `{name}` states its limit ({n} characters) only in \
                             prose: generated clients and validators cannot read it"
                        ),
                    )
                    .with_severity(Severity::Info),
                // Advice on the key's shape, not a retry hazard: reviewers of real specs judged a
                // warning too strong.
                None => cx
                    .diagnostic(
                        &RULE,
                        anchor,
                        format!(
                            "idempotency key `{name}` has no maxLength: servers must bound what \
                             they store and index"
                        ),
                    )
                    .with_severity(Severity::Info),
            };
            // The length the description states, else the default.
            let length = stated
                .as_deref()
                .and_then(|n| n.parse::<i64>().ok())
                .filter(|n| *n > 0)
                .unwrap_or(key_details::DEFAULT_MAX_LENGTH);
            let fix = key_details::declare_max_length(&cx.editor, name, schema, param.node, length);
            out.push(d.with_operation(op).with_help(help).with_fix_or(fix));
        }
        // No `format` or `pattern` is not reported: keys are opaque strings (draft §2.1), and
        // reviewers of real specs judged asking for a shape a style nudge.
    }
}
