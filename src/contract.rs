//! An operation's retry contract: what a client may rely on when it retries (its key and
//! whether it must send one, its `If-Match`, the statuses it is answered with and which carry
//! `Retry-After`, how long keys are kept, whether its body is a relative change). The
//! contract-change rules compare two versions of a spec by these terms, operation by operation:
//! the version at a git base is kept as a [`Contract`] of owned terms with places as text, the
//! version being linted is read live, with places the rules can point at.

use std::collections::HashMap;

pub use crate::diagnostic::Place;
use crate::facts::Facts;
use crate::idempotency::stated_lifetime;
use crate::model::{Api, Method, Operation};
use crate::resolve::{Bundle, Location};
use crate::source::Node;

/// The terms of one operation; `P` is where each is written: a [`Location`] in the document
/// being linted, a [`Place`] in a stored version.
#[derive(Debug, Clone)]
pub struct Terms<P> {
    /// `POST /payments`: method and path template (callback expression, webhook name).
    pub identity: String,
    pub operation_id: Option<String>,
    pub method: Method,
    /// The method key.
    pub at: P,
    /// POST or PATCH that changes state: what a duplicate of does harm.
    pub duplicates_matter: bool,
    /// Why it moves money, if it does.
    pub moves_money: Option<String>,
    pub key: Option<KeyTerm<P>>,
    /// Its `If-Match` header parameter.
    pub if_match: Option<P>,
    /// Every status it declares, with its `Retry-After` header when it has one.
    pub responses: Vec<ResponseTerm<P>>,
    /// How long keys are kept, as stated: the text, in seconds when known, and where.
    pub lifetime: Option<(String, Option<u64>, P)>,
    /// What makes its body a relative change.
    pub relative: Option<(String, P)>,
    /// The `$ref`s of its own `parameters` list.
    pub parameter_refs: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct KeyTerm<P> {
    /// `header `Idempotency-Key``.
    pub describe: String,
    /// `None` for an `x-idempotency` key, which says nothing of it.
    pub required: Option<bool>,
    pub at: P,
    /// Its `required` entry, or the carrier when it has none.
    pub required_at: P,
}

#[derive(Debug, Clone)]
pub struct ResponseTerm<P> {
    pub status: String,
    pub at: P,
    /// Its `Retry-After` entry under the response's `headers`, where the response is written:
    /// a response component shared by several operations has one place for all of them.
    pub retry_after: Option<P>,
}

impl<P> Terms<P> {
    pub fn response(&self, status: &str) -> Option<&ResponseTerm<P>> {
        self.responses.iter().find(|r| r.status == status)
    }
}

/// The terms of every operation of one document.
#[derive(Debug, Clone, Default)]
pub struct Contract {
    pub operations: Vec<Terms<Place>>,
}

/// The terms of `op` in the document being linted.
pub fn terms<'a>(
    bundle: &'a Bundle,
    api: &Api<'a>,
    facts: &Facts<'a>,
    op: &Operation<'a>,
) -> Terms<Location> {
    let of = facts.of(op);
    let duplicates_matter = of.duplicates_matter();
    let key = of.carriers.first().map(|c| KeyTerm {
        describe: c.describe(),
        required: c.required(),
        at: c.location(),
        required_at: c.required_location(),
    });
    let lifetime = of
        .carriers
        .first()
        .and_then(|c| stated_lifetime(bundle, api.root, op, c))
        .map(|(l, at)| (l.text, l.seconds, at));
    let responses = op
        .responses
        .iter()
        .map(|r| ResponseTerm {
            status: r.status.to_string(),
            at: r.key,
            retry_after: retry_after_key(r),
        })
        .collect();
    let parameter_refs = op
        .node
        .get("parameters")
        .and_then(|list| list.node.as_seq())
        .map(|items| {
            items
                .iter()
                .filter_map(|p| p.get("$ref").and_then(Node::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Terms {
        identity: op.display(),
        operation_id: op.operation_id.map(|id| id.to_string()),
        method: op.method,
        at: op.key,
        duplicates_matter,
        // (Judged only where a duplicate does harm: the rules ask nothing of the rest, and on a
        // large spec the judgements of every GET would cost as much as a run.)
        moves_money: duplicates_matter
            .then(|| facts.moves_money(op).map(str::to_string))
            .flatten(),
        key,
        if_match: op.header_param("If-Match").map(|p| p.declared),
        responses,
        lifetime,
        relative: facts.relative_change(op).map(|e| (e.what.clone(), e.at)),
        parameter_refs,
    }
}

/// The key of `r`'s `Retry-After` header under its `headers` (the header object when that
/// mapping is itself a `$ref`), wherever the response is written.
fn retry_after_key(r: &crate::model::Response<'_>) -> Option<Location> {
    let header = r.header("Retry-After")?;
    let key = r.node.get("headers").and_then(|headers| {
        headers
            .node
            .entries()
            .iter()
            .find(|e| e.key.text.eq_ignore_ascii_case("Retry-After"))
            .map(|e| Location {
                file: headers.file,
                span: e.key.span,
            })
    });
    Some(key.unwrap_or(header.node.location()))
}

impl<L> Terms<L> {
    /// The same terms, with every place turned by `place`.
    pub fn map<P>(self, place: &impl Fn(L) -> P) -> Terms<P> {
        Terms {
            identity: self.identity,
            operation_id: self.operation_id,
            method: self.method,
            at: place(self.at),
            duplicates_matter: self.duplicates_matter,
            moves_money: self.moves_money,
            key: self.key.map(|k| KeyTerm {
                describe: k.describe,
                required: k.required,
                at: place(k.at),
                required_at: place(k.required_at),
            }),
            if_match: self.if_match.map(place),
            responses: self
                .responses
                .into_iter()
                .map(|r| ResponseTerm {
                    status: r.status,
                    at: place(r.at),
                    retry_after: r.retry_after.map(place),
                })
                .collect(),
            lifetime: self.lifetime.map(|(t, s, at)| (t, s, place(at))),
            relative: self.relative.map(|(w, at)| (w, place(at))),
            parameter_refs: self.parameter_refs,
        }
    }
}

impl Contract {
    /// The contract of a linted document, to keep after its tree is gone.
    pub fn of<'a>(bundle: &'a Bundle, api: &Api<'a>, facts: &Facts<'a>) -> Contract {
        let place = |at: Location| {
            let file = bundle.file(at.file);
            let lc = file.source.line_col(at.span.start as usize);
            Place {
                file: file.source.name.clone(),
                line: lc.line,
                column: lc.column,
            }
        };
        Contract {
            operations: api
                .operations
                .iter()
                .map(|op| terms(bundle, api, facts, op).map(&place))
                .collect(),
        }
    }

    /// The base's version of each operation of `now`, matched by method and path template,
    /// then by `operationId` (a path renamed), each base operation to one operation at most.
    pub fn pair<'c, P>(&'c self, now: &[Terms<P>]) -> Vec<Option<&'c Terms<Place>>> {
        let mut by_identity: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, op) in self.operations.iter().enumerate() {
            by_identity.entry(&op.identity).or_default().push(i);
        }
        let mut taken = vec![false; self.operations.len()];
        let mut out: Vec<Option<usize>> = now
            .iter()
            .map(|op| {
                let list = by_identity.get_mut(op.identity.as_str())?;
                let i = (!list.is_empty()).then(|| list.remove(0))?;
                taken[i] = true;
                Some(i)
            })
            .collect();
        let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, op) in self.operations.iter().enumerate() {
            if let (false, Some(id)) = (taken[i], &op.operation_id) {
                by_id.entry(id).or_default().push(i);
            }
        }
        for (slot, op) in out.iter_mut().zip(now) {
            if slot.is_none()
                && let Some(id) = &op.operation_id
                && let Some(list) = by_id.get_mut(id.as_str())
                && !list.is_empty()
            {
                *slot = Some(list.remove(0));
            }
        }
        out.into_iter()
            .map(|i| i.map(|i| &self.operations[i]))
            .collect()
    }
}

/// The contracts of a base's documents, by each root document's path in its project (after
/// the renames since the base). The run at the base may fill them while the run of the work
/// tree is going on: a document's contract-change rules wait for them ([`BaseContracts::of`]).
#[derive(Debug, Default)]
pub struct BaseContracts {
    /// `origin/main`, as the user named it.
    pub name: String,
    documents: std::sync::OnceLock<HashMap<String, Contract>>,
    /// `idemlint diff OLD NEW`: the one document of the base is the old version of the one
    /// linted, whatever their names.
    pub single: bool,
}

impl BaseContracts {
    /// Contracts still to come from a run at the base ([`BaseContracts::fill`]).
    pub fn pending(name: &str, single: bool) -> Self {
        BaseContracts {
            name: name.to_string(),
            documents: std::sync::OnceLock::new(),
            single,
        }
    }

    /// Contracts known already.
    pub fn ready(name: &str, single: bool, documents: HashMap<String, Contract>) -> Self {
        let base = BaseContracts::pending(name, single);
        base.fill(documents);
        base
    }

    /// Gives the contracts of the run at the base (once; later calls are ignored).
    pub fn fill(&self, documents: HashMap<String, Contract>) {
        let _ = self.documents.set(documents);
    }

    /// The base's version of the document at `path` (in its project), once the run at the base
    /// is done.
    pub fn of(&self, path: &str) -> Option<&Contract> {
        let documents = self.documents.wait();
        match documents.get(path) {
            Some(c) => Some(c),
            None if self.single && documents.len() == 1 => documents.values().next(),
            None => None,
        }
    }
}
