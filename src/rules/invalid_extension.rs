//! `invalid-extension`: idemlint's own extensions, `x-idempotency` and `x-idemlint-ignore`,
//! written in a form idemlint cannot read. Without this finding a typo (`keyy`, `"false"`)
//! would silently change what the other rules see.

use std::collections::HashSet;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::policy_problems;
use crate::resolve::FileId;

pub const RULE: Rule = Rule {
    id: RuleId::InvalidExtension,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // An extension shared by several operations (a YAML anchor, a `$ref`'d path item) is one
    // thing to fix.
    let mut seen = HashSet::new();
    for op in &cx.api.operations {
        let Some(ext) = op.extension("x-idempotency") else {
            continue;
        };
        let ext = cx.bundle.deref(ext);
        if !seen.insert(ext.location()) {
            continue;
        }
        for (at, message) in policy_problems(cx.bundle, ext) {
            let mut d = cx.diagnostic(&RULE, at, message);
            if op.owns(at) {
                d = d.with_operation(op);
            }
            out.push(d);
        }
    }
    let mut problems = Vec::new();
    for (i, file) in cx.bundle.files.iter().enumerate() {
        // Most files have no suppression: skip their walk.
        if file.source.text.contains(crate::suppress::EXTENSION) {
            crate::suppress::shape_problems(&file.root, FileId(i as u32), &mut problems);
        }
    }
    for (at, message) in problems {
        out.push(cx.diagnostic(&RULE, at, message));
    }
}
