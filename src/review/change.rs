//! The review of a change (`review --base REF`): the operations a change adds, removes and
//! changes, each changed one with its five answers before → after, regressions first.

use std::collections::HashMap;

use super::{Answer, ApiReview, OperationReview, Verdict};

/// The review of a change to every document of a run.
#[derive(Debug, Clone)]
pub struct ChangeReview {
    /// The base as the user named it, with its commit: `origin/main (3f2a9c1)`.
    pub base: String,
    pub documents: Vec<DocumentChange>,
}

/// One document before and after the change.
#[derive(Debug, Clone)]
pub struct DocumentChange {
    /// The document's title after the change (before it, for a document the change deletes).
    pub title: String,
    /// The document as the run names it after the change; the base's name for a deleted one.
    pub file: String,
    /// Its name at the base, when that differs (renamed) or it did not exist there (`None`).
    pub before_file: Option<String>,
    /// The whole review at the base, and after the change, when the document exists there.
    pub before: Option<ApiReview>,
    pub after: Option<ApiReview>,
    /// Operations whose answers changed, regressions first.
    pub changed: Vec<OperationChange>,
    pub added: Vec<OperationReview>,
    pub removed: Vec<OperationReview>,
    /// Operations the change leaves answered as they were.
    pub unchanged: usize,
}

/// One operation whose answers a change altered.
#[derive(Debug, Clone)]
pub struct OperationChange {
    pub before: OperationReview,
    pub after: OperationReview,
    /// Some answer got worse (good → gap or risk, gap → risk).
    pub regression: bool,
    /// Some answer got better and none worse.
    pub improvement: bool,
    /// What the contract-change rules say of it: rule id, severity, message.
    pub findings: Vec<ChangeNote>,
}

/// A contract-change finding, as a review shows it.
#[derive(Debug, Clone)]
pub struct ChangeNote {
    pub rule: String,
    pub severity: crate::diagnostic::Severity,
    pub message: String,
    /// `file:line:col` after the change.
    pub at: String,
}

impl Verdict {
    /// How bad the verdict is, for telling a regression from an improvement.
    pub fn rank(self) -> u8 {
        match self {
            Verdict::Good | Verdict::NotApplicable => 0,
            Verdict::Gap => 1,
            Verdict::Risk => 2,
        }
    }
}

fn same(a: &Answer, b: &Answer) -> bool {
    // `at` moves with every line inserted above: a place is not a change of the answer.
    a.verdict == b.verdict && a.text == b.text
}

impl OperationChange {
    /// Whether question `i`'s answer differs.
    pub fn differs(&self, i: usize) -> bool {
        !same(&self.before.answers[i], &self.after.answers[i])
    }
}

impl DocumentChange {
    /// Operations the change made worse (an added one is counted apart: [`DocumentChange::added_at_risk`]).
    pub fn regressions(&self) -> usize {
        self.changed.iter().filter(|c| c.regression).count()
    }

    /// Operations the change added that a retry gets wrong.
    pub fn added_at_risk(&self) -> usize {
        self.added
            .iter()
            .filter(|op| op.answers.iter().any(|a| a.verdict == Verdict::Risk))
            .count()
    }

    /// Whether the change touched the document's operations at all.
    pub fn is_unchanged(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }
}

/// Pairs the documents reviewed at the base with the ones reviewed after the change, by their
/// [`ApiReview::key`] (their path in the project, under their names of now). An operation
/// with a contract-change finding ([`OperationReview::contract`]) is changed even when its
/// answers read the same.
pub fn compare(base: String, before: Vec<ApiReview>, after: Vec<ApiReview>) -> ChangeReview {
    let mut before: HashMap<String, ApiReview> =
        before.into_iter().map(|r| (r.key.clone(), r)).collect();
    let mut documents = Vec::new();
    for now in after {
        let was = before.remove(&now.key);
        documents.push(document(was, Some(now)));
    }
    let mut deleted: Vec<ApiReview> = before.into_values().collect();
    deleted.sort_by(|a, b| a.file.cmp(&b.file));
    documents.extend(deleted.into_iter().map(|was| document(Some(was), None)));
    ChangeReview { base, documents }
}

fn document(before: Option<ApiReview>, after: Option<ApiReview>) -> DocumentChange {
    let (title, file) = match (&before, &after) {
        (_, Some(now)) => (now.title.clone(), now.file.clone()),
        (Some(was), None) => (was.title.clone(), was.file.clone()),
        (None, None) => unreachable!("a document is on one side at least"),
    };
    let before_file = match (&before, &after) {
        (Some(was), Some(now)) if was.file != now.file => Some(was.file.clone()),
        (Some(_), Some(_)) => Some(file.clone()),
        (Some(was), None) => Some(was.file.clone()),
        (None, _) => None,
    };
    let old: Vec<OperationReview> = before
        .as_ref()
        .map_or_else(Vec::new, |r| r.operations.clone());
    let new: Vec<OperationReview> = after
        .as_ref()
        .map_or_else(Vec::new, |r| r.operations.clone());
    let (pairs, added, removed) = pair(old, new);
    let mut changed = Vec::new();
    let mut unchanged = 0;
    for (was, now) in pairs {
        let findings = now.contract.clone();
        // A path renamed (paired by its operationId) is a change a reviewer sees, even when
        // every answer reads the same.
        let moved = was.identity != now.identity;
        if findings.is_empty()
            && !moved
            && was
                .answers
                .iter()
                .zip(&now.answers)
                .all(|(a, b)| same(a, b))
        {
            unchanged += 1;
            continue;
        }
        // A contract-change warning or error is a regression even where the answers read the
        // same (keys kept a shorter time are still documented).
        let noted = findings
            .iter()
            .any(|n| n.severity >= crate::diagnostic::Severity::Warning);
        // Only a question that arose before can get worse or better: one that arises now (a
        // key added brings the questions of its replay and its concurrency) is new, not worse.
        let compared = || {
            was.answers
                .iter()
                .zip(&now.answers)
                .filter(|(a, _)| a.verdict != Verdict::NotApplicable)
        };
        let worse = compared().any(|(a, b)| b.verdict.rank() > a.verdict.rank());
        let better = compared().any(|(a, b)| b.verdict.rank() < a.verdict.rank());
        changed.push(OperationChange {
            before: was,
            after: now,
            regression: worse || noted,
            improvement: better && !worse && !noted,
            findings,
        });
    }
    // Regressions first, then changes that are neither, then improvements; each in the
    // document's order.
    changed.sort_by_key(|c| match (c.regression, c.improvement) {
        (true, _) => 0,
        (false, false) => 1,
        (false, true) => 2,
    });
    DocumentChange {
        title,
        file,
        before_file,
        before,
        after,
        changed,
        added,
        removed,
        unchanged,
    }
}

/// Operations matched by method and path template, then by `operationId` (a path renamed);
/// what is left is added or removed.
type Paired = (
    Vec<(OperationReview, OperationReview)>,
    Vec<OperationReview>,
    Vec<OperationReview>,
);

fn pair(old: Vec<OperationReview>, new: Vec<OperationReview>) -> Paired {
    let mut old: Vec<Option<OperationReview>> = old.into_iter().map(Some).collect();
    let mut by_identity: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, op) in old.iter().enumerate() {
        let op = op.as_ref().expect("all present");
        by_identity.entry(op.identity.clone()).or_default().push(i);
    }
    let mut pairs: Vec<(usize, Option<usize>, OperationReview)> = Vec::new();
    for now in new {
        let at = by_identity
            .get_mut(&now.identity)
            .and_then(|list| (!list.is_empty()).then(|| list.remove(0)));
        pairs.push((pairs.len(), at, now));
    }
    // A path renamed keeps its operationId.
    let mut by_id: HashMap<String, Vec<usize>> = HashMap::new();
    let taken: std::collections::HashSet<usize> = pairs.iter().filter_map(|p| p.1).collect();
    for (i, op) in old.iter().enumerate() {
        if taken.contains(&i) {
            continue;
        }
        if let Some(id) = op.as_ref().and_then(|op| op.operation_id.clone()) {
            by_id.entry(id).or_default().push(i);
        }
    }
    for p in pairs.iter_mut().filter(|p| p.1.is_none()) {
        if let Some(id) = &p.2.operation_id {
            p.1 = by_id
                .get_mut(id)
                .and_then(|list| (!list.is_empty()).then(|| list.remove(0)));
        }
    }
    let mut matched = Vec::new();
    let mut added = Vec::new();
    for (_, at, now) in pairs {
        match at.and_then(|i| old[i].take()) {
            Some(was) => matched.push((was, now)),
            None => added.push(now),
        }
    }
    let removed = old.into_iter().flatten().collect();
    (matched, added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(identity: &str, id: Option<&str>, verdict: Verdict) -> OperationReview {
        let a = Answer {
            verdict,
            text: format!("{verdict:?}"),
            at: None,
        };
        OperationReview {
            operation: identity.to_string(),
            method: identity.split(' ').next().unwrap().to_string(),
            tags: Vec::new(),
            operation_id: id.map(str::to_string),
            identity: identity.to_string(),
            at: "api.yaml:1:1".to_string(),
            answers: [a.clone(), a.clone(), a.clone(), a.clone(), a],
            contract: Vec::new(),
        }
    }

    #[test]
    fn operations_pair_by_path_then_by_operation_id() {
        let old = vec![
            op("POST /a", Some("createA"), Verdict::Good),
            op("POST /b", Some("createB"), Verdict::Good),
            op("POST /gone", None, Verdict::Good),
        ];
        let new = vec![
            op("POST /a", Some("createA"), Verdict::Risk),
            op("POST /b2", Some("createB"), Verdict::Good),
            op("POST /new", None, Verdict::Gap),
        ];
        let (pairs, added, removed) = pair(old, new);
        let names: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(a, b)| (a.identity.as_str(), b.identity.as_str()))
            .collect();
        assert_eq!(names, [("POST /a", "POST /a"), ("POST /b", "POST /b2")]);
        assert_eq!(added.len(), 1);
        assert_eq!(added[0].identity, "POST /new");
        assert_eq!(removed.len(), 1);
        assert_eq!(removed[0].identity, "POST /gone");
    }

    #[test]
    fn regressions_come_first_and_moved_places_are_no_change() {
        let review = |ops: Vec<OperationReview>| ApiReview {
            key: "api.yaml".into(),
            title: "t".into(),
            file: "api.yaml".into(),
            operations: ops,
            unsafe_operations: 0,
            protected: 0,
            optional_keys: 0,
            carriers: Vec::new(),
            lifetimes: Vec::new(),
            gaps: Vec::new(),
        };
        let mut moved = op("GET /x", None, Verdict::Good);
        moved.answers[0].at = Some("api.yaml:40:1".into());
        let before = review(vec![
            op("POST /better", None, Verdict::Risk),
            op("POST /worse", None, Verdict::Good),
            op("GET /x", None, Verdict::Good),
        ]);
        let after = review(vec![
            op("POST /better", None, Verdict::Good),
            op("POST /worse", None, Verdict::Risk),
            moved,
        ]);
        let change = compare("main".into(), vec![before], vec![after]);
        let doc = &change.documents[0];
        assert_eq!(doc.unchanged, 1);
        assert_eq!(doc.changed.len(), 2);
        assert_eq!(doc.changed[0].after.identity, "POST /worse");
        assert!(doc.changed[0].regression);
        assert!(doc.changed[1].improvement);
        assert_eq!(doc.regressions(), 1);
        assert_eq!(doc.added_at_risk(), 0);
    }
}
