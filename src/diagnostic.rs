//! What a rule reports.

use std::borrow::Cow;

use ecow::EcoString;

use crate::catalogue::RuleId;
pub use crate::catalogue::Severity;
use crate::fix::Fix;
use crate::model::Operation;
use crate::resolve::Location;

/// The operation a finding is about, as reported. Its texts share the document tree's strings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpRef {
    pub method: &'static str,
    pub path: EcoString,
    pub operation_id: Option<EcoString>,
}

impl OpRef {
    pub fn of(op: &Operation<'_>) -> OpRef {
        OpRef {
            method: op.method.upper(),
            path: op.path.clone(),
            operation_id: op.operation_id.cloned(),
        }
    }
}

/// A secondary place that explains the finding.
///
/// Label and help texts are nearly always literals: `Cow` keeps them unallocated, which adds up
/// over the tens of thousands of findings a large spec can give.
#[derive(Debug, Clone)]
pub struct Label {
    pub at: Location,
    pub message: Cow<'static, str>,
}

#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    pub primary: Location,
    pub operation: Option<OpRef>,
    /// The operation's method key: which operation, even when two share a method and path (a
    /// webhook and a path, two callbacks).
    pub operation_key: Option<Location>,
    /// The operation object itself: a suppression written inside it covers the finding even
    /// when the object lives in another file than its method key.
    pub operation_node: Option<Location>,
    pub labels: Vec<Label>,
    pub help: Option<Cow<'static, str>>,
    /// Rules that say more about the same operation: when one of them reports it, and is not
    /// turned off there, this finding is left out. Shadowing is judged by the filter, after
    /// selection and levels, so turning the stronger rule off brings the weaker one back.
    pub shadowed_by: &'static [RuleId],
    /// One of the same gap on every operation of an API, and what no operation of it declares
    /// (`a 4xx response`, `a 409 response`): the filter reports the first of them it keeps,
    /// after suppressions and levels, and counts the others in its message. A suppression on
    /// one operation then silences that one only.
    pub shared_gap: Option<String>,
    /// Advice (a rule's info) about a deprecated operation: the filter judges it as any finding
    /// (a suppression of it is used, it shadows what it would shadow) and then leaves it out.
    pub deprecated_advice: bool,
    /// The change that resolves the finding, when the rule knows one.
    pub fix: Option<Box<Fix>>,
    /// Why a rule that has fixes gives none for this finding (the place is a YAML anchor's).
    pub no_fix: Option<Cow<'static, str>>,
    /// What other rules will find once the fix is applied, with their fixes (the 409 a key
    /// brings): the filter judges each as a finding (selected, not turned off, not silenced)
    /// and adds the fixes of those it keeps to this one's, so that one pass of `--fix` makes
    /// the change whole. Never reported themselves.
    pub follow_ups: Vec<Diagnostic>,
    /// A contract-change finding's place in the version it compares with (the base).
    pub before: Option<Box<Place>>,
    /// What a runtime rule saw (`idemlint probe`): the requests sent and the responses, as
    /// text.
    pub evidence: Option<String>,
}

/// A place in a version of the spec that is not loaded (the base of a change): `api.yaml:12:7`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl Diagnostic {
    /// A finding of `rule` at `at`; the builders below add the rest.
    pub fn new(rule: RuleId, severity: Severity, at: Location, message: String) -> Self {
        Diagnostic {
            rule,
            severity,
            message,
            primary: at,
            operation: None,
            operation_key: None,
            operation_node: None,
            labels: Vec::new(),
            help: None,
            shadowed_by: &[],
            shared_gap: None,
            deprecated_advice: false,
            fix: None,
            no_fix: None,
            follow_ups: Vec::new(),
            before: None,
            evidence: None,
        }
    }

    /// The requests and responses a runtime finding rests on.
    pub fn with_evidence(mut self, evidence: String) -> Self {
        self.evidence = Some(evidence);
        self
    }

    /// Where the finding's construct was in the version a change is compared with.
    pub fn with_before(mut self, at: &Place) -> Self {
        self.before = Some(Box::new(at.clone()));
        self
    }

    /// Proposes `fix` for the finding.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(Box::new(fix));
        self
    }

    /// Proposes the fix built for the finding, or says why there is none.
    pub fn with_fix_or(mut self, fix: Result<Fix, Cow<'static, str>>) -> Self {
        match fix {
            Ok(fix) => self.fix = Some(Box::new(fix)),
            Err(why) => self.no_fix = Some(why),
        }
        self
    }

    /// Left out when one of `rules` reports the same operation (see [`Diagnostic::shadowed_by`]).
    pub fn shadowed_by(mut self, rules: &'static [RuleId]) -> Self {
        // (`--diff` runs only the rules that have fixes: what shadows one of them must be one.)
        debug_assert!(
            !self.rule.meta().fixes || rules.iter().all(|r| r.meta().fixes),
            "{} has fixes, and is shadowed by a rule without",
            self.rule
        );
        self.shadowed_by = rules;
        self
    }

    pub fn with_operation(mut self, op: &Operation<'_>) -> Self {
        self.operation = Some(OpRef::of(op));
        self.operation_key = Some(op.key);
        self.operation_node = Some(op.node.location());
        self
    }

    pub fn with_label(mut self, at: Location, message: impl Into<Cow<'static, str>>) -> Self {
        // Most findings carry one label; a first `push` would make room for four.
        self.labels.reserve_exact(1);
        self.labels.push(Label {
            at,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
}
