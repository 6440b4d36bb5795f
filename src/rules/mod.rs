//! The rules. Each lives in its own file with its unit tests; its documentation and metadata
//! (severity, category, summary, sources) live in `rules/<id>.md`, embedded here.

mod became_relative;
mod conflict_response_removed;
mod conflict_without_retry_after;
mod duplicate_key;
mod idempotency_key_fixed_value;
mod idempotency_key_location;
mod idempotency_key_made_optional;
mod idempotency_key_on_safe_method;
mod idempotency_key_optional;
mod idempotency_key_removed;
mod idempotency_key_schema;
mod if_match_removed;
mod inconsistent_idempotency_key;
mod incremental_update;
mod invalid_extension;
mod invalid_structure;
mod json_patch_without_precondition;
mod key_ttl_shortened;
mod mismatch_response_removed;
mod missing_conflict_response;
mod missing_idempotency_key;
mod missing_mismatch_response;
mod missing_missing_key_response;
mod missing_precondition_on_update;
mod money_movement_optional_key;
mod non_idempotent_put;
mod remote_ref_not_fetched;
mod repeatability_headers_incomplete;
mod replay_reported_as_error;
mod retry_after_missing;
mod retry_after_removed;
mod retry_after_schema;
mod server_error_for_concurrency;
mod short_key_ttl;
mod undocumented_key_ttl;
mod unprotected_patch;
mod unresolved_ref;
mod unused_suppression;

pub use crate::catalogue::{
    RuleId, RuleMeta, categories, expand_selector, meta, parse_meta, unknown_selector,
};

use crate::config::Settings;
use crate::contract::{BaseContracts, Contract, Place, Terms};
use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Facts;
use crate::idempotency::KeyCarrier;
use crate::model::{Api, Operation, Parameter};
use crate::resolve::{Bundle, Location};

/// A rule: its stable id, its documentation, and its check.
pub struct Rule {
    pub id: RuleId,
    pub check: fn(&Context<'_>, &mut Vec<Diagnostic>),
}

/// The rule of `id`.
pub fn find(id: &str) -> Option<&'static Rule> {
    RuleId::parse(id).map(|id| &RULES[id as usize])
}

/// Every rule, in the order of the catalogue.
pub static RULES: &[Rule] = &[
    missing_idempotency_key::RULE,
    unprotected_patch::RULE,
    money_movement_optional_key::RULE,
    idempotency_key_optional::RULE,
    idempotency_key_schema::RULE,
    idempotency_key_fixed_value::RULE,
    idempotency_key_location::RULE,
    idempotency_key_on_safe_method::RULE,
    inconsistent_idempotency_key::RULE,
    missing_conflict_response::RULE,
    conflict_without_retry_after::RULE,
    missing_mismatch_response::RULE,
    missing_missing_key_response::RULE,
    replay_reported_as_error::RULE,
    server_error_for_concurrency::RULE,
    undocumented_key_ttl::RULE,
    short_key_ttl::RULE,
    incremental_update::RULE,
    non_idempotent_put::RULE,
    json_patch_without_precondition::RULE,
    missing_precondition_on_update::RULE,
    retry_after_missing::RULE,
    retry_after_schema::RULE,
    repeatability_headers_incomplete::RULE,
    unresolved_ref::RULE,
    remote_ref_not_fetched::RULE,
    duplicate_key::RULE,
    invalid_structure::RULE,
    invalid_extension::RULE,
    unused_suppression::RULE,
    idempotency_key_removed::RULE,
    idempotency_key_made_optional::RULE,
    conflict_response_removed::RULE,
    retry_after_removed::RULE,
    mismatch_response_removed::RULE,
    key_ttl_shortened::RULE,
    if_match_removed::RULE,
    became_relative::RULE,
    runtime(RuleId::ReplayNotIdempotent),
    runtime(RuleId::ConcurrentRetryMishandled),
    runtime(RuleId::KeyReuseAccepted),
    runtime(RuleId::MissingKeyAccepted),
    runtime(RuleId::DuplicateCreated),
];

/// A runtime rule (`src/probe/checks/`): `idemlint probe` judges a running server's answers
/// with it; a spec alone never raises it, so its check finds nothing.
const fn runtime(id: RuleId) -> Rule {
    Rule {
        id,
        check: |_, _| {},
    }
}

/// What a rule sees.
pub struct Context<'a> {
    pub api: &'a Api<'a>,
    pub bundle: &'a Bundle,
    pub settings: &'a Settings,
    /// What the document says of each operation, judged once for every rule and for review.
    pub facts: &'a Facts<'a>,
    /// Where the same document at the base a change is compared with (`check --base`, `diff`)
    /// is found, and its path in the project: the contract-change rules compare with it, and
    /// find nothing without it. It is looked up when first asked for, since the run at the base
    /// may still be going on.
    base_of: Option<(&'a BaseContracts, String)>,
    base: std::sync::OnceLock<Option<&'a Contract>>,
    versions: std::sync::OnceLock<Vec<Version<'a>>>,
    /// Builds the rules' fixes in the style of each file.
    pub editor: crate::fix::editor::Editor<'a>,
    key_parameter:
        std::sync::OnceLock<Result<crate::fix::key::KeyParameter, crate::fix::editor::Refusal>>,
}

/// The fix that gives an operation the API's key parameter (see [`crate::fix::key`]), with what
/// the key brings: the findings of the rules about a keyed operation's responses (the 409, the
/// mismatch status and the 400 the key's description promises) as they will be once it is
/// there, as [`Diagnostic::follow_ups`]. The filter judges those as findings and adds the fixes
/// of the ones it keeps to the key's, so that one pass of `--fix` writes the key and its
/// responses; a rule not selected, turned off or suppressed there adds nothing, nor does
/// advice on a deprecated operation.
pub struct KeyFix<'c, 'a> {
    cx: &'c Context<'a>,
    conflict: missing_conflict_response::Keyed<'c, 'a>,
    mismatch: missing_mismatch_response::Keyed<'c, 'a>,
    missing_key: missing_missing_key_response::Keyed<'c, 'a>,
}

impl<'c, 'a> KeyFix<'c, 'a> {
    pub fn new(cx: &'c Context<'a>) -> Self {
        KeyFix {
            cx,
            conflict: missing_conflict_response::Keyed::new(cx),
            mismatch: missing_mismatch_response::Keyed::new(cx),
            missing_key: missing_missing_key_response::Keyed::new(cx),
        }
    }

    /// `d`, about `op`, which takes no key, with the key's fix (or why there is none) and what
    /// it brings.
    pub fn attach(&self, d: Diagnostic, op: &Operation<'a>) -> Diagnostic {
        let cx = self.cx;
        let mut d = d.with_fix_or(crate::fix::key::fix(cx, op));
        if d.fix.is_none() || !cx.duplicates_matter(op) {
            return d;
        }
        // The 400 rule asks it only of a required key it knows by name.
        let required = cx.key_parameter().is_ok_and(|key| {
            key.required
                && cx
                    .settings
                    .key_headers
                    .iter()
                    .any(|h| h.eq_ignore_ascii_case(&key.name))
        });
        d.follow_ups = [
            self.conflict.gap(op, None).map(|(f, _)| f),
            self.mismatch.gap(op, &[]).map(|(f, _)| f),
            required.then(|| self.missing_key.gap(op)).flatten(),
        ]
        .into_iter()
        .flatten()
        .filter(|f| f.fix.is_some())
        .collect();
        // (Judged as the rules' own findings are: advice on a deprecated operation is left
        // out.)
        if !cx.facts.deprecated.is_empty() {
            d.follow_ups.iter_mut().for_each(|f| cx.note_deprecated(f));
        }
        d
    }
}

/// An operation of the document and its version at the base.
pub struct Version<'a> {
    pub op: &'a Operation<'a>,
    /// Its terms now, placed in the document.
    pub now: Terms<Location>,
    /// Its terms at the base.
    pub was: &'a Terms<Place>,
}

impl<'a> Context<'a> {
    pub fn new(
        api: &'a Api<'a>,
        bundle: &'a Bundle,
        settings: &'a Settings,
        facts: &'a Facts<'a>,
    ) -> Self {
        Context {
            api,
            bundle,
            settings,
            facts,
            base_of: None,
            base: std::sync::OnceLock::new(),
            versions: std::sync::OnceLock::new(),
            editor: crate::fix::editor::Editor::new(bundle),
            key_parameter: std::sync::OnceLock::new(),
        }
    }

    /// The context of a change: the document, at `path` in its project, is compared with its
    /// version among `base`.
    pub fn with_base(mut self, base: Option<(&'a BaseContracts, String)>) -> Self {
        self.base_of = base;
        self
    }

    /// The document at the base, waiting for the run at the base if it is still going on.
    pub fn base(&self) -> Option<&'a Contract> {
        *self
            .base
            .get_or_init(|| self.base_of.as_ref().and_then(|(base, path)| base.of(path)))
    }

    /// Each operation found at the base too (by method and path, then `operationId`), with
    /// both versions' terms; nothing without a base.
    pub fn versions(&self) -> &[Version<'a>] {
        self.versions.get_or_init(|| {
            let Some(base) = self.base() else {
                return Vec::new();
            };
            let now: Vec<Terms<Location>> = self
                .api
                .operations
                .iter()
                .map(|op| crate::contract::terms(self.bundle, self.api, self.facts, op))
                .collect();
            let was = base.pair(&now);
            self.api
                .operations
                .iter()
                .zip(now)
                .zip(was)
                .filter_map(|((op, now), was)| Some(Version { op, now, was: was? }))
                .collect()
        })
    }

    /// The key parameter the fixes of an operation without a key refer to, found or planned
    /// once a document (see [`crate::fix::key`]).
    pub fn key_parameter(
        &self,
    ) -> Result<&crate::fix::key::KeyParameter, crate::fix::editor::Refusal> {
        self.key_parameter
            .get_or_init(|| crate::fix::key::key_parameter(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Why `op` moves money, if it does (see [`Facts::moves_money`]).
    pub fn moves_money(&self, op: &Operation<'_>) -> Option<&str> {
        self.facts.moves_money(op)
    }

    /// What makes `op`'s body a relative change, if anything (see [`Facts::relative_change`]).
    pub fn relative_change(&self, op: &Operation<'_>) -> Option<&crate::heuristics::Evidence> {
        self.facts.relative_change(op)
    }

    /// Whether `op`'s duplicates matter (see [`Context::operations_whose_duplicates_matter`]).
    pub fn duplicates_matter(&self, op: &Operation<'_>) -> bool {
        self.facts.of(op).duplicates_matter()
    }

    /// The key carriers `op` declares, headers first.
    pub fn carriers(&self, op: &Operation<'_>) -> &[KeyCarrier<'a>] {
        &self.facts.of(op).carriers
    }

    /// The operations whose duplicates matter: POST and PATCH that do not only read, without
    /// `x-idempotency: false`. The rules about a key's contract look only at these.
    pub fn operations_whose_duplicates_matter(
        &self,
    ) -> impl Iterator<Item = &'a Operation<'a>> + '_ {
        self.facts.operations_whose_duplicates_matter()
    }

    /// Every header key parameter with an operation that uses it, once per definition however
    /// many operations share it through `$ref`.
    pub fn key_header_definitions(&self) -> Vec<(&'a Operation<'a>, &'a Parameter<'a>)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for op in &self.api.operations {
            for carrier in self.carriers(op) {
                if let KeyCarrier::Header(param) = carrier
                    && seen.insert(param.node.location())
                {
                    out.push((op, *param));
                }
            }
        }
        out
    }

    /// A finding about a deprecated operation is advice for the clients still calling it, at
    /// most an info: the fix is to move them to its successor (Square's retired
    /// `DeprecatedBatchChangeInventory`, Okta's deprecated `oktaSupport/grant`).
    /// Advice (an info by its rule) about a deprecated operation is marked to be left out
    /// ([`Diagnostic::deprecated_advice`]): the spec will not be fixed there, and reviewers of
    /// real specs judged it noise (Stripe's retired Recipients, Adyen's deprecated
    /// `/originKeys`).
    fn note_deprecated(&self, d: &mut Diagnostic) {
        // A finding about what several operations share (one key component's lifetime or
        // schema, one 429 response, a gap of the whole API) is no deprecated operation's alone,
        // even when it names the first of them.
        const SHARED: &[RuleId] = &[
            RuleId::UndocumentedKeyTtl,
            RuleId::ShortKeyTtl,
            RuleId::IdempotencyKeySchema,
            RuleId::IdempotencyKeyFixedValue,
            RuleId::IdempotencyKeyLocation,
            RuleId::InconsistentIdempotencyKey,
            RuleId::RetryAfterMissing,
            RuleId::RetryAfterSchema,
        ];
        let shared = SHARED.contains(&d.rule) || d.shared_gap.is_some();
        if !shared
            && d.operation_key
                .is_some_and(|k| self.facts.deprecated.contains(&k))
        {
            if d.severity == Severity::Info {
                d.deprecated_advice = true;
            }
            d.severity = Severity::Info;
            d.message.push_str(" (the operation is deprecated)");
        }
    }

    /// A response-contract rule's findings, as one: in an API that declares no 4xx response on
    /// any operation (Square answers only 200 in its spec), or never declares the `status` the
    /// rule asks for (Xero declares 400s but no 422 anywhere), the same gap on every keyed
    /// operation is one gap of the API, fixed once. They are marked so; the engine keeps the
    /// first one that is not suppressed or turned off, and says how many share it
    /// ([`shared_gap_note`]). An API that declares the status somewhere and not here has a gap
    /// of this operation's, reported on it.
    /// `answered` is the rule's own test of an operation: the API shares the gap when no
    /// operation of it passes (a `default` response answers a missing key as a 400 does).
    pub fn once_if_undeclared(
        &self,
        status: &str,
        answered: impl Fn(&Operation<'_>) -> bool,
        mut found: Vec<Diagnostic>,
        out: &mut Vec<Diagnostic>,
    ) {
        let gap = if found.len() < 2 {
            None
        } else if !self.facts.declares_client_errors {
            Some("a 4xx response".to_string())
        } else if !self.api.operations.iter().any(answered) {
            Some(format!("a {status} response"))
        } else {
            None
        };
        if let Some(gap) = gap {
            found
                .iter_mut()
                .for_each(|d| d.shared_gap = Some(gap.clone()));
            // The one kept stands where the gap matters most: an operation that moves money
            // (Adyen's `/payments`) before one whose concurrent copies merely collide
            // (`/cancels`). (A stable sort: the API's order otherwise.)
            // (Operations found by their node, through one index rather than a search each.)
            let by_node: std::collections::HashMap<_, _> = self
                .api
                .operations
                .iter()
                .map(|op| (op.node.location(), op))
                .collect();
            let moves_money = |d: &Diagnostic| {
                d.operation_node
                    .and_then(|at| by_node.get(&at))
                    .is_some_and(|op| self.moves_money(op).is_some())
            };
            found.sort_by_cached_key(|d| !moves_money(d));
        }
        out.append(&mut found);
    }

    /// `at` as a message quotes it: `api.yaml:12:7`.
    pub fn place(&self, at: Location) -> Place {
        let file = self.bundle.file(at.file);
        let lc = file.source.line_col(at.span.start as usize);
        Place {
            file: file.source.name.clone(),
            line: lc.line,
            column: lc.column,
        }
    }

    /// A finding of `rule` at `at`, with the rule's default severity.
    pub fn diagnostic(&self, rule: &Rule, at: Location, message: String) -> Diagnostic {
        Diagnostic::new(rule.id, rule.id.meta().severity, at, message)
    }
}

/// What the finding kept of a shared gap ([`Diagnostic::shared_gap`]) adds to its message, when
/// `others` findings of it were kept too.
pub fn shared_gap_note(what: &str, others: usize) -> String {
    format!(
        " (no operation of this API declares {what}; {others} other keyed operation{} \
         lack{} it too)",
        if others == 1 { "" } else { "s" },
        if others == 1 { "s" } else { "" },
    )
}

/// Runs every rule that `runs` admits (the rules `--select` and `--ignore` leave: what the others
/// find would be dropped unseen) on one API, handing each rule's diagnostics to `sink` (which
/// takes them out) before the next rule runs: a large spec's diagnostics are then never all held
/// at once, next to the findings made of them.
pub fn check_each(
    cx: &Context<'_>,
    runs: impl Fn(RuleId) -> bool,
    mut sink: impl FnMut(&mut Vec<Diagnostic>),
) {
    let mut out = Vec::new();
    for rule in RULES.iter().filter(|r| runs(r.id)) {
        (rule.check)(cx, &mut out);
        if !cx.facts.deprecated.is_empty() {
            out.iter_mut().for_each(|d| cx.note_deprecated(d));
        }
        sink(&mut out);
        out.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find` and the SARIF rule index take a rule's place in the catalogue for its place here.
    #[test]
    fn the_rules_are_in_catalogue_order() {
        let ids: Vec<RuleId> = RULES.iter().map(|r| r.id).collect();
        assert_eq!(ids, RuleId::ALL);
        for id in RuleId::ALL {
            assert_eq!(find(id.as_str()).map(|r| r.id), Some(*id));
            assert_eq!(RuleId::parse(id.as_str()), Some(*id));
        }
        assert!(find("no-such-rule").is_none());
    }
}
