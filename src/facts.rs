//! The facts of a document that rules and `review` share, judged once per operation: what
//! carries its idempotency key, whether it says `x-idempotency: false`, whether it sends an
//! `If-Match` precondition, why a POST or PATCH only reads (if it does), whether its duplicates
//! matter, and (when first asked) why it moves money and what makes its body a relative change. Rules read
//! them through `rules::Context`, `review` through the engine's `Linted`; neither judges them
//! again. The judgements themselves live in `idempotency.rs` and `classify.rs`.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::classify::Exemption;
use crate::config::Settings;
use crate::heuristics::Evidence;
use crate::idempotency::{Declared, KeyCarrier, declared, has_if_match, key_carriers};
use crate::model::{Api, Method, Operation};
use crate::resolve::{Bundle, Location};
use crate::source::Node;

/// One operation's facts.
pub struct OperationFacts<'a> {
    /// Its key carriers, headers first.
    pub carriers: Vec<KeyCarrier<'a>>,
    /// It sends an `If-Match` header: a retry of a stale version fails instead of applying twice.
    pub if_match: bool,
    /// It says `x-idempotency: false`.
    declared_harmless: bool,
    /// Why a POST or PATCH only reads, passes the request through, only deletes or runs in a
    /// test mode ([`crate::idempotency::exemption`]), which decides whether its duplicates matter.
    /// (Kept small: a spec may have a hundred thousand operations.)
    exemption: Option<Exemption>,
    duplicates_matter: bool,
    money: OnceLock<Option<String>>,
    relative: OnceLock<Option<Evidence>>,
}

impl OperationFacts<'_> {
    /// Whether a duplicate of the operation matters: a POST or PATCH that does more than read,
    /// without `x-idempotency: false`. PUT and DELETE are idempotent by method.
    pub fn duplicates_matter(&self) -> bool {
        self.duplicates_matter
    }

    /// Whether something makes a retry safe as it is: a key carrier, or an `If-Match`
    /// precondition.
    pub fn protected(&self) -> bool {
        !self.carriers.is_empty() || self.if_match
    }

    /// Whether it says `x-idempotency: false`: duplicates are harmless by design.
    pub fn declared_harmless(&self) -> bool {
        self.declared_harmless
    }
}

/// The facts of every operation of a document, and of the API as a whole.
pub struct Facts<'a> {
    api: &'a Api<'a>,
    bundle: &'a Bundle,
    settings: &'a Settings,
    operations: Vec<OperationFacts<'a>>,
    /// Whether any operation declares a 4xx response (Square's declare only 200).
    pub declares_client_errors: bool,
    /// The method keys of the operations marked `deprecated: true`.
    pub deprecated: HashSet<Location>,
}

impl<'a> Facts<'a> {
    pub fn new(api: &'a Api<'a>, bundle: &'a Bundle, settings: &'a Settings) -> Self {
        let operations = api
            .operations
            .iter()
            .map(|op| {
                let declared_harmless = matches!(declared(bundle, op), Some(Declared::NotNeeded));
                let exemption = matches!(op.method, Method::Post | Method::Patch)
                    .then(|| crate::idempotency::exemption(bundle, op, settings))
                    .flatten();
                let duplicates_matter = matches!(op.method, Method::Post | Method::Patch)
                    && exemption.is_none()
                    && !declared_harmless;
                OperationFacts {
                    carriers: key_carriers(bundle, op, settings),
                    declared_harmless,
                    if_match: has_if_match(op),
                    exemption,
                    duplicates_matter,
                    money: OnceLock::new(),
                    relative: OnceLock::new(),
                }
            })
            .collect();
        let declares_client_errors = api
            .operations
            .iter()
            .any(|op| op.responses.iter().any(|r| r.status.starts_with('4')));
        let deprecated = api
            .operations
            .iter()
            .filter(|op| op.node.node.get("deprecated").and_then(Node::as_bool) == Some(true))
            .map(|op| op.key)
            .collect();
        Facts {
            api,
            bundle,
            settings,
            operations,
            declares_client_errors,
            deprecated,
        }
    }

    /// The facts of `op`, an operation of this document.
    pub fn of(&self, op: &Operation<'_>) -> &OperationFacts<'a> {
        &self.operations[op.index]
    }

    /// Why `op` only reads, passes the request through, only deletes or runs in a test mode,
    /// if it does (see [`crate::idempotency::exemption`]): as judged for a POST or PATCH, judged
    /// now for another method (only `review` asks, once).
    pub fn exemption(&self, op: &Operation<'_>) -> Option<Exemption> {
        match op.method {
            Method::Post | Method::Patch => self.of(op).exemption.clone(),
            _ => crate::idempotency::exemption(self.bundle, op, self.settings),
        }
    }

    /// Why `op` moves money, if it does (see [`crate::idempotency::moves_money`]): judged when
    /// first asked, since the answer reads the body and the names.
    pub fn moves_money(&self, op: &Operation<'_>) -> Option<&str> {
        self.of(op)
            .money
            .get_or_init(|| crate::idempotency::moves_money(self.bundle, op, self.settings))
            .as_deref()
    }

    /// What makes `op`'s body a relative change, if anything (see
    /// [`crate::idempotency::relative_change_evidence`]): found when first asked.
    pub fn relative_change(&self, op: &Operation<'_>) -> Option<&Evidence> {
        self.of(op)
            .relative
            .get_or_init(|| crate::idempotency::relative_change_evidence(self.bundle, op))
            .as_ref()
    }

    /// The operations whose duplicates matter, in document order.
    pub fn operations_whose_duplicates_matter(
        &self,
    ) -> impl Iterator<Item = &'a Operation<'a>> + '_ {
        self.api
            .operations
            .iter()
            .filter(move |op| self.operations[op.index].duplicates_matter)
    }
}
