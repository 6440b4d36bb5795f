//! `unused-suppression`: an `x-idemlint-ignore` or `# idemlint-ignore` that silences nothing.
//!
//! Found while suppressions are applied (`src/suppress.rs`), after every other rule has run, so
//! the check here has nothing to do. The fixes are built there too
//! (`Suppressions::unused_with_fixes`), since only it knows how each suppression is written: an
//! unused id is taken out (the whole suppression when none of its ids silences anything), a
//! misspelt one corrected.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::UnusedSuppression,
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
