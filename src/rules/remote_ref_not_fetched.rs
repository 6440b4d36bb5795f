//! `remote-ref-not-fetched`: remote `$ref`s left unfetched because remote references are off.
//!
//! Not fetching is the policy (idemlint opens no connection unless asked), so the document gets
//! one finding that counts them, at the first, instead of an error at each: a spec that shares
//! an `Error` schema from another repository should not fail CI once per use of it.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::RemoteRefNotFetched,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(&first) = cx.bundle.unfetched.first() else {
        return;
    };
    let target = cx.bundle.ref_target(first).unwrap_or_default();
    let n = cx.bundle.unfetched.len();
    // The flag is in the message, not only the help: one-line formats show no help.
    let message = if n == 1 {
        format!(
            "remote $ref `{target}` not fetched: remote references are off (use \
             --allow-remote-refs)"
        )
    } else {
        format!(
            "{n} remote $refs not fetched (remote references are off; use --allow-remote-refs); \
             the first is `{target}`"
        )
    };
    let unchecked = cx.api.unchecked.len();
    let mut help = String::from(
        "pass --allow-remote-refs to fetch them, or vendor the files into the repository and \
         refer to the local copies",
    );
    if unchecked > 0 {
        help.push_str(&format!(
            "; {} that depend on them could not be checked",
            if unchecked == 1 {
                "1 operation".to_string()
            } else {
                format!("{unchecked} operations")
            }
        ));
    }
    let d = cx.diagnostic(&RULE, first, message).with_help(help);
    // When every operation could still be checked (the remote parts are error schemas, say),
    // nothing was missed: the policy is worth a note, not a warning.
    out.push(if unchecked == 0 {
        d.with_severity(crate::diagnostic::Severity::Info)
    } else {
        d
    });
}
