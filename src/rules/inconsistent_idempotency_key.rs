//! `inconsistent-idempotency-key`: one API, several key names or key formats.

use std::collections::HashMap;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::KeyCarrier;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: RuleId::InconsistentIdempotencyKey,
    check,
};

/// The most frequent value and its count (first seen wins a tie).
fn majority<T: Eq + std::hash::Hash + Clone>(values: &[T]) -> Option<(T, usize)> {
    let mut counts: HashMap<&T, (usize, usize)> = HashMap::new();
    for (i, v) in values.iter().enumerate() {
        counts.entry(v).or_insert((0, i)).0 += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first)))
        .map(|(v, (n, _))| (v.clone(), n))
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let keyed: Vec<_> = cx
        .api
        .operations
        .iter()
        .filter_map(|op| {
            // A field that is a key only by its description (a map keyed by keys) is a design
            // of its own, not another spelling.
            let c = cx.carriers(op).iter().find(|c| c.named(cx.settings))?;
            Some((op, c))
        })
        .collect();
    if keyed.len() < 2 {
        return;
    }
    // Names compare without case (header names have none) and without the carrier's kind: a
    // header and an `x-idempotency` key both called `Idempotency-Key` are the same key.
    let names: Vec<String> = keyed
        .iter()
        .map(|(_, c)| c.name().to_ascii_lowercase())
        .collect();
    let Some((usual, count)) = majority(&names) else {
        return;
    };
    let usual_display = keyed[names.iter().position(|n| *n == usual).unwrap()]
        .1
        .describe();
    for ((op, carrier), name) in keyed.iter().zip(&names) {
        if *name != usual {
            out.push(
                cx.diagnostic(
                    &RULE,
                    carrier.location(),
                    format!(
                        "{} uses {} as idempotency key while {count} other operation{} use{} {usual_display}",
                        op.display(),
                        carrier.describe(),
                        if count == 1 { "" } else { "s" },
                        if count == 1 { "s" } else { "" },
                    ),
                )
                .with_operation(op)
                .with_help("use one key name across the API (draft §5: one fixed format)"),
            );
        }
    }
    // Among the usual header carriers: one maxLength, format and pattern.
    let headers: Vec<_> = keyed
        .iter()
        .zip(&names)
        .filter(|(_, n)| **n == usual)
        .filter_map(|((op, c), _)| match c {
            KeyCarrier::Header(p) => Some((op, p, p.schema.map(|s| cx.bundle.deref(s)))),
            _ => None,
        })
        .collect();
    for keyword in ["maxLength", "format", "pattern"] {
        let values: Vec<Option<String>> = headers
            .iter()
            .map(|(_, _, s)| {
                s.and_then(|s| s.node.get(keyword))
                    .and_then(Node::scalar_text)
                    .map(str::to_string)
            })
            .collect();
        // The value most keys document. A key that documents nothing is an outlier only when
        // most keys document that value: the one key that states a maxLength among keys that
        // state none is the better one (PayPal's 108), and their gap is
        // `idempotency-key-schema`'s finding.
        let documented: Vec<Option<String>> =
            values.iter().filter(|v| v.is_some()).cloned().collect();
        let Some((common, n)) = majority(&documented) else {
            continue;
        };
        let undocumented = values.len() - documented.len();
        let mut reported = std::collections::HashSet::new();
        for ((op, p, schema), value) in headers.iter().zip(&values) {
            if *value == common
                || (value.is_none() && n <= undocumented)
                || !reported.insert(p.node.location())
            {
                continue;
            }
            let at = schema
                .and_then(|s| s.key_location(keyword))
                .or_else(|| p.node.key_location("schema"))
                .unwrap_or(p.declared);
            let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_string());
            out.push(
                cx.diagnostic(
                    &RULE,
                    at,
                    format!(
                        "idempotency key `{}` of {} has {keyword} {} while {n} other operation{} use{} {}",
                        p.name,
                        op.display(),
                        show(value),
                        if n == 1 { "" } else { "s" },
                        if n == 1 { "s" } else { "" },
                        show(&common)
                    ),
                )
                .with_operation(op)
                .with_help("share one key parameter through `$ref: '#/components/parameters/IdempotencyKey'`"),
            );
        }
    }
}
