//! `idempotency-key-fixed-value`: a key with a default, enum, const or example value, which
//! generated clients and consoles send on every call.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Severity};
use crate::fix::key_details;
use crate::resolve::At;

/// Why an example has no fix: it documents what a key looks like, which a fix cannot rewrite.
const NO_EXAMPLE_FIX: &str = "an example shows readers what a key looks like: rewrite it by \
                              hand (a placeholder, or words saying each request needs a new \
                              key) rather than lose it";

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyFixedValue,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (op, param) in cx.key_header_definitions() {
        let name = param.name;
        let mut places: Vec<At<'_>> = vec![param.node];
        if let Some(schema) = param.schema.map(|s| cx.bundle.deref(s))
            && schema.location() != param.node.location()
        {
            places.push(schema);
        }
        for at in places {
            for keyword in ["default", "enum", "const"] {
                if let Some(loc) = at.key_location(keyword) {
                    out.push(
                        cx.diagnostic(
                            &RULE,
                            loc,
                            format!(
                                "idempotency key `{name}` has a fixed `{keyword}` value: \
                                     clients that send it reuse one key for every request"
                            ),
                        )
                        .with_operation(op)
                        .with_help(format!(
                            "remove `{keyword}`: every request needs a fresh key"
                        ))
                        .with_fix_or(key_details::remove_fixed_value(
                            &cx.editor, name, at, keyword,
                        )),
                    );
                }
            }
            if let Some(example) = at.node.get_entry("example") {
                let value = example.value.scalar_text().unwrap_or("…");
                out.push(
                        cx.diagnostic(
                            &RULE,
                            at.key_location("example").expect("present"),
                            format!(
                                "idempotency key `{name}` has a fixed example `{value}`: \
                                 generated clients and try-it consoles send it on every call"
                            ),
                        )
                        .with_severity(Severity::Info)
                        .with_operation(op)
                        .with_help("describe the format instead (e.g. `format: uuid`), or say in the example that each request needs a new key")
                        .with_fix_or(Err(NO_EXAMPLE_FIX.into())),
                    );
            }
        }
    }
}
