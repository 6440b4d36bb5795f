//! `idempotency-key-location`: a key sent in the URL or a cookie, or in two places at once.

use std::collections::HashSet;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::{KeyCarrier, parameter_named_like_a_key};

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyLocation,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let s = cx.settings;
    let mut seen = HashSet::new();
    for op in &cx.api.operations {
        for p in &op.parameters {
            let where_ = match p.location {
                "query" => "in the query string",
                "path" => "in the URL path",
                "cookie" => "in a cookie",
                _ => continue,
            };
            if !parameter_named_like_a_key(s, p) || !seen.insert(p.node.location()) {
                continue;
            }
            let at = p.node.key_location("in").unwrap_or(p.declared);
            let advice = if p.location == "cookie" {
                "cookies are shared between requests"
            } else {
                "keys in URLs leak into logs and caches"
            };
            // Offered beside a header carrier (Lob takes the key as a header or in the query):
            // clients can already do the right thing; an info says which to prefer.
            let also_header = cx
                .carriers(op)
                .iter()
                .any(|c| matches!(c, KeyCarrier::Header(_)));
            let mut d = cx
                .diagnostic(
                    &RULE,
                    at,
                    format!(
                        "idempotency key `{}` is sent {where_}: {advice}; send it as a header",
                        p.name
                    ),
                )
                .with_operation(op)
                .with_help("declare it `in: header` (e.g. `Idempotency-Key`)");
            if also_header {
                d = d.with_severity(crate::diagnostic::Severity::Info);
            }
            out.push(d);
        }
        let carriers = cx.carriers(op);
        let header = carriers.iter().find(|c| matches!(c, KeyCarrier::Header(_)));
        let body = carriers
            .iter()
            .find(|c| matches!(c, KeyCarrier::BodyField(_)));
        if let (Some(header), Some(body)) = (header, body) {
            out.push(
                cx.diagnostic(
                    &RULE,
                    body.location(),
                    format!(
                        "{} carries an idempotency key both as {} and as {}: say which one \
                         wins, or keep one",
                        op.display(),
                        header.describe(),
                        body.describe()
                    ),
                )
                .with_operation(op)
                .with_help("keep one carrier: the header is the IETF draft's choice"),
            );
        }
    }
}
