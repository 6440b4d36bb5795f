//! `idempotency-key-removed`: a change takes away the key of an operation whose duplicates
//! matter (and so every client's retry protection), or leaves its key parameter pointing at
//! something that is no key.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyRemoved,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for v in cx.versions() {
        let (Some(was), None) = (&v.was.key, &v.now.key) else {
            continue;
        };
        if !v.now.duplicates_matter {
            continue;
        }
        // A key parameter whose `$ref` now names another component: the operation looks the
        // same in a diff of its own lines, and is unkeyed.
        let gone: Vec<&String> = v
            .was
            .parameter_refs
            .iter()
            .filter(|r| !v.now.parameter_refs.contains(r))
            .collect();
        let came: Vec<&String> = v
            .now
            .parameter_refs
            .iter()
            .filter(|r| !v.was.parameter_refs.contains(r))
            .collect();
        let why = match (gone.as_slice(), came.as_slice()) {
            ([old], [new]) => format!(
                "; its parameter `$ref: {old}` is now `$ref: {new}`, which is no idempotency key"
            ),
            _ => String::new(),
        };
        let required = match was.required {
            Some(true) => ", required",
            Some(false) => ", optional",
            None => "",
        };
        out.push(
            cx.diagnostic(
                &RULE,
                v.op.key,
                format!(
                    "{} no longer takes an idempotency key{why}: before, {}{required} ({}) → \
                     after, none ({}): a retry now runs again",
                    v.op.display(),
                    was.describe,
                    was.at,
                    cx.place(v.op.key),
                ),
            )
            .with_operation(v.op)
            .with_before(&was.at)
            .with_help(
                "keep the key, or declare the operation harmless to repeat \
                 (`x-idempotency: false`) if it is",
            ),
        );
    }
}
