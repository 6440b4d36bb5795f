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
use crate::fix::{Applicability, Edit, Fix, plan};
use crate::resolve::{Bundle, FileId, Location, PointerCache};
use crate::suppress::Suppressions;

/// The rule that reports suppressions that silence nothing.
const UNUSED: RuleId = RuleId::UnusedSuppression;

/// Whether a suppression can silence findings of `rule`: not `unused-suppression`'s, or a
/// suppression could hide that it hides nothing.
pub fn suppressible(rule: RuleId) -> bool {
    rule != UNUSED
}

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

    /// Whether `rule` can find anything here: it runs, it is no contract-change rule in a
    /// document compared with nothing, and no runtime rule (only `idemlint probe` reports
    /// those: a suppression of one in the spec is for the probe, not unused).
    pub fn can_find(&self, rule: &str) -> bool {
        self.runs(rule)
            && RuleId::parse(rule).is_none_or(|r| {
                !r.is_runtime() && (self.compared || r.meta().category != CONTRACT_CHANGE)
            })
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
        // (Only what is shown is fixed: the finding kept of the silenced ones keeps its own.)
        let bundle = self.bundle;
        for (gap, fixed) in [(shown_gap, Some(bundle)), (silenced_gap, None)] {
            if let Some(k) = one_for_the_gap(gap, &gap_what, fixed) {
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
        for u in self.suppressions.unused_with_fixes(self.bundle, enabled) {
            let d = Diagnostic::new(UNUSED, severity, u.at, u.message).with_fix_or(u.fix);
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
        if let Some(key) = kept.diagnostic.operation_key {
            self.reported.insert((kept.diagnostic.rule, key));
        }
        kept.silenced = self.silenced(&kept.diagnostic);
        let follow_ups = std::mem::take(&mut kept.diagnostic.follow_ups);
        if kept.silenced.is_none() && !left_out {
            self.add_follow_ups(&mut kept.diagnostic, follow_ups);
        }
        (!left_out).then_some(kept)
    }

    /// The suppression that silences `d`, if one does, with its reason (the suppression is then
    /// used).
    fn silenced(&mut self, d: &Diagnostic) -> Option<Option<String>> {
        if self.suppressions.is_empty() {
            return None;
        }
        let (file, span, line, node) = self.place(d);
        self.suppressions
            .silence_at(file, span, Some(line), d.rule.as_str())
            .or_else(|| {
                // Written inside the operation object, which may be a `$ref` away.
                let node = node?;
                self.suppressions
                    .silence_at(node.file, node.span, None, d.rule.as_str())
            })
    }

    /// Whether a suppression would silence `d`, which is not a finding yet: none is used.
    fn would_be_silenced(&self, d: &Diagnostic) -> bool {
        if self.suppressions.is_empty() {
            return false;
        }
        let (file, span, line, node) = self.place(d);
        self.suppressions
            .would_silence(file, span, Some(line), d.rule.as_str())
            || node.is_some_and(|node| {
                self.suppressions
                    .would_silence(node.file, node.span, None, d.rule.as_str())
            })
    }

    /// Where `d` is, as suppressions are matched: its file, span and line, and its operation.
    fn place(&self, d: &Diagnostic) -> (FileId, crate::source::Span, u32, Option<Location>) {
        let at = d.primary;
        let line = self
            .bundle
            .file(at.file)
            .source
            .line_col(at.span.start as usize)
            .line;
        (at.file, at.span, line, d.operation_node)
    }

    /// Whether a suppression in the document names `rule`.
    pub fn suppresses(&self, rule: &str) -> bool {
        self.suppressions.names(rule)
    }

    /// Adds to `d`'s fix the fixes of what it brings ([`Diagnostic::follow_ups`]) that would be
    /// findings here: their rules run and are not turned off there, they are not advice on a
    /// deprecated operation, and no suppression would silence them. (Such a suppression is not
    /// used: it silences nothing yet, and is reported so, as `check` reports it.)
    fn add_follow_ups(&mut self, d: &mut Diagnostic, follow_ups: Vec<Diagnostic>) {
        let Some(fix) = d.fix.take() else {
            return;
        };
        let mut fixes = vec![*fix];
        for f in follow_ups {
            let left_out = f.deprecated_advice && !self.config.levels.contains_key(f.rule.as_str());
            let Some(kept) = self.levelled(f) else {
                continue;
            };
            if left_out || self.would_be_silenced(&kept.diagnostic) {
                continue;
            }
            fixes.extend(kept.diagnostic.fix.map(|f| *f));
        }
        let bundle = self.bundle;
        let text_of = |file: FileId| bundle.files.get(file.0 as usize).map(|f| &*f.source.text);
        d.fix = Some(Box::new(with_follow_ups(fixes, text_of)));
    }
}

/// The one finding that stands for a gap the whole API shares ([`Diagnostic::shared_gap`]): the
/// first of the most severe (a per-path level may have raised or lowered some), its message
/// counting the others and naming what no operation declares (`what`). With `fixed`, the bundle
/// they were found in, its fix is made to cover every one of them ([`merged_fix`]).
fn one_for_the_gap(mut all: Vec<Kept>, what: &str, fixed: Option<&Bundle>) -> Option<Kept> {
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
        if let Some(bundle) = fixed {
            let fixes: Vec<Fix> = std::iter::once(&mut one)
                .chain(all.iter_mut())
                .filter_map(|k| k.diagnostic.fix.take().map(|f| *f))
                .collect();
            let text_of = |file: FileId| bundle.files.get(file.0 as usize).map(|f| &*f.source.text);
            match merged_fix(&fixes, text_of) {
                Some(fix) => {
                    one.diagnostic.fix = Some(Box::new(fix));
                    one.diagnostic.no_fix = None;
                }
                None => one.diagnostic.fix = None,
            }
        }
    }
    Some(one)
}

/// One fix made of `fixes` (each an operation's, the kept one first): the ones a single pass
/// would apply together ([`crate::fix::plan`]: a fix that conflicts with, or touches, one taken
/// before it, or that cannot be applied at all, is left for later), their edits written once
/// each. Titled after the first taken, with how many operations it covers when more than one
/// ("Declare a 409 response on 12 operations"); unsafe when any taken is.
fn merged_fix<'t>(fixes: &[Fix], text_of: impl Fn(FileId) -> Option<&'t str>) -> Option<Fix> {
    let taken = plan(fixes, |_| true, text_of).taken;
    let first = &fixes[*taken.first()?];
    let edits = edits_of(fixes, &taken);
    let title = match taken.len() {
        1 => first.title.clone(),
        n => format!("{} on {n} operations", first.title),
    };
    let applicability = applicability_of(fixes, &taken);
    Some(Fix {
        title,
        applicability,
        edits,
    })
}

/// Unsafe when any of the fixes `taken` is.
fn applicability_of(fixes: &[Fix], taken: &[usize]) -> Applicability {
    if taken
        .iter()
        .any(|&i| fixes[i].applicability == Applicability::Unsafe)
    {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    }
}

/// The edits of the fixes `taken`, each written once.
fn edits_of(fixes: &[Fix], taken: &[usize]) -> Vec<Edit> {
    let mut written: HashSet<(FileId, u32, u32, &str)> = HashSet::new();
    taken
        .iter()
        .flat_map(|&i| &fixes[i].edits)
        .filter(|e| written.insert((e.file, e.span.start, e.span.end, e.text.as_str())))
        .cloned()
        .collect()
}

/// A fix (the first of `fixes`) with the fixes of what it brings (the rest) that one pass of
/// the planner takes beside it: "Require the `Idempotency-Key` header; declare a 409 response
/// with Retry-After". Those it would defer are left for a later pass of `--fix`, as findings.
fn with_follow_ups<'t>(mut fixes: Vec<Fix>, text_of: impl Fn(FileId) -> Option<&'t str>) -> Fix {
    if fixes.len() == 1 {
        return fixes.swap_remove(0);
    }
    let taken = plan(&fixes, |_| true, text_of).taken;
    if taken.first() != Some(&0) {
        return fixes.swap_remove(0);
    }
    let mut title = fixes[0].title.clone();
    for &i in &taken[1..] {
        let t = &fixes[i].title;
        let mut chars = t.chars();
        title.push_str("; ");
        title.extend(chars.next().map(|c| c.to_ascii_lowercase()));
        title.push_str(chars.as_str());
    }
    let applicability = applicability_of(&fixes, &taken);
    Fix {
        title,
        applicability,
        edits: edits_of(&fixes, &taken),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn edit(file: u32, start: usize, end: usize, text: &str) -> Edit {
        Edit {
            file: FileId(file),
            span: Span::new(start, end),
            text: text.to_string(),
        }
    }

    fn fix(title: &str, applicability: Applicability, edits: Vec<Edit>) -> Fix {
        Fix {
            title: title.to_string(),
            applicability,
            edits,
        }
    }

    fn declare(edits: Vec<Edit>) -> Fix {
        fix("Declare a 409 response", Applicability::Safe, edits)
    }

    /// Two files of 40 bytes.
    fn text_of(file: FileId) -> Option<&'static str> {
        (file.0 < 2).then_some("0123456789012345678901234567890123456789")
    }

    #[test]
    fn every_operations_fix_is_merged_and_an_edit_they_share_is_written_once() {
        let shared = edit(1, 30, 30, "Retry-After");
        let fixes = vec![
            declare(vec![edit(0, 5, 5, "a"), shared.clone()]),
            declare(vec![edit(0, 10, 10, "b"), shared.clone()]),
            declare(vec![edit(0, 20, 20, "c")]),
        ];
        let merged = merged_fix(&fixes, text_of).unwrap();
        assert_eq!(merged.title, "Declare a 409 response on 3 operations");
        assert_eq!(merged.applicability, Applicability::Safe);
        assert_eq!(
            merged.edits,
            vec![
                edit(0, 5, 5, "a"),
                shared,
                edit(0, 10, 10, "b"),
                edit(0, 20, 20, "c")
            ]
        );
        // What the planner makes of it: one fix, applied whole.
        assert_eq!(
            plan(std::slice::from_ref(&merged), |_| true, text_of).taken,
            [0]
        );
    }

    #[test]
    fn a_fix_that_conflicts_with_one_merged_or_cannot_apply_is_left_out() {
        let fixes = vec![
            declare(vec![edit(0, 5, 8, "a")]),
            // Inside the first's range, at its end, and at the same place as a later insert.
            declare(vec![edit(0, 6, 6, "x")]),
            declare(vec![edit(0, 8, 8, "y")]),
            declare(vec![edit(0, 20, 20, "b")]),
            declare(vec![edit(0, 20, 20, "z")]),
            // Past the end of the file, and with no edit at all.
            declare(vec![edit(0, 30, 50, "w")]),
            declare(vec![]),
            declare(vec![edit(1, 6, 6, "c")]),
        ];
        let merged = merged_fix(&fixes, text_of).unwrap();
        assert_eq!(merged.title, "Declare a 409 response on 3 operations");
        assert_eq!(
            merged.edits,
            vec![edit(0, 5, 8, "a"), edit(0, 20, 20, "b"), edit(1, 6, 6, "c")]
        );
    }

    #[test]
    fn one_fix_keeps_its_title_and_an_unsafe_one_makes_all_unsafe() {
        let one = vec![declare(vec![edit(0, 1, 1, "a")])];
        assert_eq!(
            merged_fix(&one, text_of).unwrap().title,
            "Declare a 409 response"
        );
        let mixed = vec![
            declare(vec![edit(0, 1, 1, "a")]),
            fix(
                "Declare a 409 response",
                Applicability::Unsafe,
                vec![edit(0, 3, 3, "b")],
            ),
        ];
        assert_eq!(
            merged_fix(&mixed, text_of).unwrap().applicability,
            Applicability::Unsafe
        );
        assert_eq!(merged_fix(&[], text_of), None);
        assert_eq!(merged_fix(&[declare(vec![])], text_of), None);
    }

    /// Three keyed operations of an API that declares no 409 anywhere; the second silences the
    /// rule.
    const GAP: &str = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
        parameters: [{$ref: '#/components/parameters/Key'}]\n      responses:\n        '201': \
        {description: ok}\n  /b:\n    post:\n      x-idemlint-ignore: [missing-conflict-response]\n      \
        parameters: [{$ref: '#/components/parameters/Key'}]\n      responses:\n        '201': \
        {description: ok}\n  /c:\n    post:\n      parameters: [{$ref: \
        '#/components/parameters/Key'}]\n      responses: {'201': {description: ok}}\n\
        components:\n  parameters:\n    Key: {name: Idempotency-Key, in: header, required: true, \
        description: Kept for 24 hours., schema: {type: string, maxLength: 255}}\n";

    #[test]
    fn the_finding_kept_of_a_gap_fixes_every_operation_shown_and_none_silenced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("api.yaml");
        std::fs::write(&path, GAP).unwrap();
        let opts = crate::lint::Options {
            select: vec!["missing-conflict-response".into()],
            ..Default::default()
        };
        let report = crate::lint::run(&[path], &opts, || unreachable!("no stdin"));
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let [finding] = &report.findings[..] else {
            panic!("{:#?}", report.findings);
        };
        assert!(
            finding
                .message
                .ends_with("1 other keyed operation lacks it too)"),
            "{}",
            finding.message
        );
        let fix = finding.fix.as_ref().expect("a fix");
        assert_eq!(
            fix.title,
            "Declare a 409 response with Retry-After on 2 operations"
        );
        assert_eq!(fix.applicability, Applicability::Safe);
        let mut fixed = GAP.to_string();
        let mut edits: Vec<_> = fix.edits.iter().collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        for e in edits {
            fixed.replace_range(e.span.start as usize..e.span.end as usize, &e.text);
        }
        let declared = |path: &str| {
            let from = fixed.find(&format!("  {path}:\n")).unwrap();
            let to = fixed[from + 4..]
                .find("\n  /")
                .map_or(fixed.len(), |at| from + 4 + at);
            fixed[from..to].contains("'409'")
        };
        assert!(
            declared("/a") && declared("/c") && !declared("/b"),
            "{fixed}"
        );
    }
}
