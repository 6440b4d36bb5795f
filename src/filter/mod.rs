//! The filter: what becomes of each diagnostic the rules give, before it is a report row. It is
//! shown (at the severity the configuration gives it), silenced (by a suppression in the spec,
//! with the reason written there) or dropped (a rule not selected or turned off, advice on a
//! deprecated operation, a finding another enabled rule says better, one of a gap the whole API
//! shares beyond the first).
//!
//! The stages, in order: `--select`/`--ignore`; the configuration's level for the rule at the
//! finding's file and JSON pointer (`rules:` and `overrides:`); suppressions (`x-idemlint-ignore`
//! around it or in its operation object, `# idemlint-ignore` on its line); shadowing between
//! enabled rules (judged after every rule ran, since the rule that shadows may come later); the
//! one finding kept of a shared gap. Suppressions that silenced nothing are diagnostics of
//! `unused-suppression`, judged by selection and levels (a suppression cannot silence them).
//!
//! The baseline ([`baseline`]) is the filter's stage of a whole run: it matches the findings of
//! every document, once a file shared by several is counted once, by their rule, file and JSON
//! pointer.

pub mod baseline;

use std::collections::HashSet;

use crate::catalogue::RuleId;
use crate::config::{Config, Level};
use crate::diagnostic::{Diagnostic, Severity};
use crate::resolve::{Bundle, Location, PointerCache};
use crate::suppress::Suppressions;

/// The rule that reports suppressions that silence nothing.
const UNUSED: RuleId = RuleId::UnusedSuppression;

/// A diagnostic the filter keeps, with what it decided.
#[derive(Debug)]
pub struct Kept {
    pub diagnostic: Diagnostic,
    /// The severity shown: the rule's own, or the configuration's level for it there.
    pub severity: Severity,
    /// The JSON pointer of its place in its file.
    pub pointer: String,
    /// `Some` when a suppression in the spec silences it, with the reason written there.
    pub silenced: Option<Option<String>>,
}

/// `--select` and `--ignore`: which rules run (every rule when nothing is selected).
#[derive(Debug, Clone, Copy)]
pub struct Selection<'a> {
    pub select: &'a [String],
    pub ignore: &'a [String],
    /// Whether the document is compared with a base (`--base`, `diff`): without one the
    /// contract-change rules do not run, and a suppression of theirs (accepting a change of
    /// the contract) is not unused.
    pub compared: bool,
}

impl Selection<'_> {
    /// Whether `rule` runs.
    pub fn runs(&self, rule: &str) -> bool {
        (self.select.is_empty() || self.select.iter().any(|s| s == rule))
            && !self.ignore.iter().any(|s| s == rule)
    }

    /// Whether `rule` can find anything here: it runs, and it is no contract-change rule in
    /// a document compared with nothing.
    pub fn can_find(&self, rule: &str) -> bool {
        self.runs(rule)
            && (self.compared
                || RuleId::parse(rule).is_none_or(|r| r.meta().category != CONTRACT_CHANGE))
    }
}

/// The category of the rules that compare a document with its version at a base.
pub const CONTRACT_CHANGE: &str = "contract-change";

/// The filter of one document's diagnostics.
pub struct Filter<'a> {
    bundle: &'a Bundle,
    config: &'a Config,
    selection: Selection<'a>,
    suppressions: Suppressions,
    pointers: PointerCache,
    /// The operations each rule reported and kept (selected, not turned off): what shadows a
    /// weaker rule's finding.
    reported: HashSet<(RuleId, Location)>,
    /// Shadowable diagnostics, judged once every rule has run.
    waiting: Vec<Diagnostic>,
}

impl<'a> Filter<'a> {
    pub fn new(bundle: &'a Bundle, config: &'a Config, selection: Selection<'a>) -> Self {
        Filter {
            bundle,
            config,
            selection,
            suppressions: Suppressions::collect(bundle),
            pointers: PointerCache::default(),
            reported: HashSet::new(),
            waiting: Vec::new(),
        }
    }

    /// Judges what one rule gave (draining `diagnostics`), handing what is kept to `out` one by
    /// one, in order.
    pub fn rule(&mut self, diagnostics: &mut Vec<Diagnostic>, out: &mut impl FnMut(Kept)) {
        // A gap the whole API shares: one finding stands for all that are shown, and one for all
        // that are silenced.
        let mut shown_gap = Vec::new();
        let mut silenced_gap = Vec::new();
        // (What no operation declares: one phrase for all of a rule's marked findings.)
        let mut gap_what = String::new();
        for d in diagnostics.drain(..) {
            if !d.shadowed_by.is_empty() && d.operation_key.is_some() {
                self.waiting.push(d);
                continue;
            }
            let shared = d.shared_gap.is_some();
            if let Some(what) = &d.shared_gap {
                gap_what.clone_from(what);
            }
            match self.keep(d) {
                Some(k) if shared && k.silenced.is_some() => silenced_gap.push(k),
                Some(k) if shared => shown_gap.push(k),
                Some(k) => out(k),
                None => {}
            }
        }
        for gap in [shown_gap, silenced_gap] {
            if let Some(k) = one_for_the_gap(gap, &gap_what) {
                out(k);
            }
        }
    }

    /// After every rule: the shadowable diagnostics that waited, then the suppressions that
    /// silenced nothing.
    pub fn finish(mut self, out: &mut impl FnMut(Kept)) {
        // In catalogue order, so a kept shadowable finding can shadow the next one in turn.
        for d in std::mem::take(&mut self.waiting) {
            let key = d
                .operation_key
                .expect("only findings about an operation wait");
            if d.shadowed_by
                .iter()
                .any(|r| self.reported.contains(&(*r, key)))
            {
                continue;
            }
            if let Some(k) = self.keep(d) {
                out(k);
            }
        }
        let (config, selection) = (self.config, self.selection);
        let enabled =
            |rule: &str| selection.can_find(rule) && config.levels.get(rule) != Some(&Level::Off);
        let severity = UNUSED.meta().severity;
        for (at, message) in self.suppressions.unused(enabled) {
            let d = Diagnostic::new(UNUSED, severity, at, message);
            if let Some(k) = self.levelled(d) {
                out(k);
            }
        }
    }

    /// Selection and levels: `None` when the rule does not run here.
    fn levelled(&mut self, d: Diagnostic) -> Option<Kept> {
        if !self.selection.runs(d.rule.as_str()) {
            return None;
        }
        let file = self.bundle.file(d.primary.file);
        let pointer = self.pointers.pointer_to(&file.root, d.primary.span);
        let severity = match self
            .config
            .level(d.rule.as_str(), &file.source.path, &pointer)
        {
            Some(Level::Off) => return None,
            Some(Level::On(severity)) => severity,
            None => d.severity,
        };
        Some(Kept {
            diagnostic: d,
            severity,
            pointer,
            silenced: None,
        })
    }

    /// Every stage but shadowing and shared gaps.
    fn keep(&mut self, d: Diagnostic) -> Option<Kept> {
        // Advice on a deprecated operation is judged (its suppression is used, it shadows what
        // it would) and then left out, unless the configuration sets its rule's level.
        let left_out = d.deprecated_advice && !self.config.levels.contains_key(d.rule.as_str());
        let mut kept = self.levelled(d)?;
        let d = &kept.diagnostic;
        if let Some(key) = d.operation_key {
            self.reported.insert((d.rule, key));
        }
        if self.suppressions.is_empty() {
            return (!left_out).then_some(kept);
        }
        let at = d.primary;
        let line = self
            .bundle
            .file(at.file)
            .source
            .line_col(at.span.start as usize)
            .line;
        kept.silenced = self
            .suppressions
            .silence_at(at.file, at.span, Some(line), d.rule.as_str())
            .or_else(|| {
                // Written inside the operation object, which may be a `$ref` away.
                let node = d.operation_node?;
                self.suppressions
                    .silence_at(node.file, node.span, None, d.rule.as_str())
            });
        (!left_out).then_some(kept)
    }
}

/// The one finding that stands for a gap the whole API shares ([`Diagnostic::shared_gap`]): the
/// first of the most severe (a per-path level may have raised or lowered some), its message
/// counting the others and naming what no operation declares (`what`).
fn one_for_the_gap(mut all: Vec<Kept>, what: &str) -> Option<Kept> {
    let others = all.len().checked_sub(1)?;
    let mut at = 0;
    for i in 1..all.len() {
        if all[i].severity > all[at].severity {
            at = i;
        }
    }
    let mut one = all.swap_remove(at);
    if others > 0 {
        one.diagnostic
            .message
            .push_str(&crate::rules::shared_gap_note(what, others));
    }
    Some(one)
}
