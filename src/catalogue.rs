//! The catalogue of rules: each rule's id (typed as [`RuleId`], named in kebab case to users),
//! its documentation `rules/<id>.md` and the metadata in the doc's front matter (severity,
//! category, summary, sources). The checks themselves live in `rules/`; everything that only
//! names rules (configuration, suppressions, selectors, reports) needs no more than this.

use std::sync::LazyLock;

use crate::source::{Node, SourceFile};

/// How much a finding matters: a rule's default, or the level the configuration gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! catalogue {
    ($($variant:ident => $id:literal,)*) => {
        /// A rule, by its place in the catalogue. Its public name is [`RuleId::as_str`], which
        /// is also its order, as in reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum RuleId {
            $($variant,)*
        }

        impl RuleId {
            /// Every rule, in the order of the catalogue (and of `rules::RULES`).
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];
            const IDS: &'static [&'static str] = &[$($id,)*];
            const DOCS: &'static [&'static str] =
                &[$(include_str!(concat!("../rules/", $id, ".md")),)*];
        }
    };
}

catalogue! {
    MissingIdempotencyKey => "missing-idempotency-key",
    UnprotectedPatch => "unprotected-patch",
    MoneyMovementOptionalKey => "money-movement-optional-key",
    IdempotencyKeyOptional => "idempotency-key-optional",
    IdempotencyKeySchema => "idempotency-key-schema",
    IdempotencyKeyFixedValue => "idempotency-key-fixed-value",
    IdempotencyKeyLocation => "idempotency-key-location",
    IdempotencyKeyOnSafeMethod => "idempotency-key-on-safe-method",
    InconsistentIdempotencyKey => "inconsistent-idempotency-key",
    MissingConflictResponse => "missing-conflict-response",
    ConflictWithoutRetryAfter => "conflict-without-retry-after",
    MissingMismatchResponse => "missing-mismatch-response",
    MissingMissingKeyResponse => "missing-missing-key-response",
    ReplayReportedAsError => "replay-reported-as-error",
    ServerErrorForConcurrency => "server-error-for-concurrency",
    UndocumentedKeyTtl => "undocumented-key-ttl",
    ShortKeyTtl => "short-key-ttl",
    IncrementalUpdate => "incremental-update",
    NonIdempotentPut => "non-idempotent-put",
    JsonPatchWithoutPrecondition => "json-patch-without-precondition",
    MissingPreconditionOnUpdate => "missing-precondition-on-update",
    RetryAfterMissing => "retry-after-missing",
    RetryAfterSchema => "retry-after-schema",
    RepeatabilityHeadersIncomplete => "repeatability-headers-incomplete",
    UnresolvedRef => "unresolved-ref",
    RemoteRefNotFetched => "remote-ref-not-fetched",
    DuplicateKey => "duplicate-key",
    InvalidStructure => "invalid-structure",
    InvalidExtension => "invalid-extension",
    UnusedSuppression => "unused-suppression",
    IdempotencyKeyRemoved => "idempotency-key-removed",
    IdempotencyKeyMadeOptional => "idempotency-key-made-optional",
    ConflictResponseRemoved => "conflict-response-removed",
    RetryAfterRemoved => "retry-after-removed",
    MismatchResponseRemoved => "mismatch-response-removed",
    KeyTtlShortened => "key-ttl-shortened",
    IfMatchRemoved => "if-match-removed",
    BecameRelative => "became-relative",
    ReplayNotIdempotent => "replay-not-idempotent",
    ConcurrentRetryMishandled => "concurrent-retry-mishandled",
    KeyReuseAccepted => "key-reuse-accepted",
    MissingKeyAccepted => "missing-key-accepted",
    DuplicateCreated => "duplicate-created",
}

impl RuleId {
    /// The id users write and reports show: `missing-idempotency-key`.
    pub fn as_str(self) -> &'static str {
        Self::IDS[self as usize]
    }

    /// The rule whose id is `id`.
    pub fn parse(id: &str) -> Option<RuleId> {
        Self::IDS
            .iter()
            .position(|i| *i == id)
            .map(|at| Self::ALL[at])
    }

    /// The rule's doc, `rules/<id>.md`, front matter included.
    pub fn doc(self) -> &'static str {
        Self::DOCS[self as usize]
    }

    /// The metadata of the rule's doc.
    pub fn meta(self) -> &'static RuleMeta {
        &METAS[self as usize]
    }

    /// Where the rule's doc can be read on the web: `rules/<id>.md` of this version's published
    /// package (docs.rs shows every file of a crate as published), so the link never points at
    /// a newer text than the binary's own `explain`. SARIF's `helpUri` and the editor server's
    /// diagnostics link it.
    pub fn doc_url(self) -> String {
        format!(
            "https://docs.rs/crate/idemlint/{}/source/rules/{}.md",
            env!("CARGO_PKG_VERSION"),
            self.as_str()
        )
    }
}

/// Rules are ordered by their public name, as reports list them.
impl Ord for RuleId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for RuleId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A rule id compares equal to its public name.
impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The category of the rules `idemlint probe` reports from a running server's answers; no
/// other command ever reports them.
pub const RUNTIME: &str = "runtime";

impl RuleId {
    /// Whether `idemlint probe` reports the rule (category `runtime`), rather than the rules
    /// that read a spec.
    pub fn is_runtime(self) -> bool {
        self.meta().category == RUNTIME
    }
}

/// A rule's metadata, read from the front matter of its doc.
#[derive(Debug, Clone)]
pub struct RuleMeta {
    pub id: &'static str,
    pub severity: Severity,
    pub category: String,
    pub since: String,
    pub summary: String,
    pub sources: Vec<String>,
    /// The doc without its front matter.
    pub body: &'static str,
    /// Whether its findings have fixes: its doc's `## Fix` section starts with `Safe:` or
    /// `Unsafe:` (rather than `No fix:`).
    pub fixes: bool,
}

static METAS: LazyLock<Vec<RuleMeta>> = LazyLock::new(|| {
    RuleId::ALL
        .iter()
        .map(|r| parse_meta(r.as_str(), r.doc()).unwrap_or_else(|e| panic!("rules/{r}.md: {e}")))
        .collect()
});

/// Metadata of a rule. Panics on an unknown id: ids come from [`RuleId`].
pub fn meta(id: &str) -> &'static RuleMeta {
    match RuleId::parse(id) {
        Some(rule) => rule.meta(),
        None => panic!("unknown rule id {id}"),
    }
}

/// The categories of the rule docs' front matter (`retry-safety`, `key-lifetime`, ...), in the
/// order their first rule appears in the catalogue.
pub fn categories() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for m in METAS.iter() {
        if !out.contains(&m.category.as_str()) {
            out.push(&m.category);
        }
    }
    out
}

/// The rule ids a `--select`/`--ignore` name stands for: a rule id itself, or every rule of a
/// category. `None` when it is neither.
pub fn expand_selector(name: &str) -> Option<Vec<&'static str>> {
    if let Some(rule) = RuleId::parse(name) {
        return Some(vec![rule.as_str()]);
    }
    let ids: Vec<&'static str> = METAS
        .iter()
        .filter(|m| m.category == name)
        .map(|m| m.id)
        .collect();
    (!ids.is_empty()).then_some(ids)
}

/// What to say about a `--select`/`--ignore` name that is neither a rule id nor a category: the
/// closest of both, or where to find them.
pub fn unknown_selector(name: &str) -> String {
    let known = RuleId::ALL.iter().map(|r| r.as_str()).chain(categories());
    match crate::suggest::closest(name, known) {
        Some(near) => format!("unknown rule or category `{name}`; did you mean `{near}`?"),
        None => format!(
            "unknown rule or category `{name}`; categories: {}; `idemlint rules` lists the rules",
            categories().join(", ")
        ),
    }
}

/// Splits `---\n<yaml>\n---\n<markdown>` and reads the YAML with our own loader.
pub fn parse_meta(id: &'static str, doc: &'static str) -> Result<RuleMeta, String> {
    let rest = doc
        .strip_prefix("---\n")
        .ok_or("doc does not start with a `---` front matter")?;
    let end = rest
        .find("\n---\n")
        .ok_or("front matter is not closed by `---`")?;
    let (front, body) = (&rest[..end], &rest[end + 5..]);
    let file = SourceFile::new(
        format!("rules/{id}.md").into(),
        format!("rules/{id}.md"),
        front.to_string(),
        crate::source::Format::Yaml,
    );
    let loaded = file
        .parse(&crate::limits::Limits::default())
        .map_err(|e| e.message)?;
    let root = &loaded.root;
    let text = |key: &str| -> Result<String, String> {
        root.get(key)
            .and_then(Node::scalar_text)
            .map(str::to_string)
            .ok_or_else(|| format!("front matter has no `{key}`"))
    };
    if text("id")? != id {
        return Err(format!("front matter id is not `{id}`"));
    }
    let severity = text("severity")?;
    Ok(RuleMeta {
        id,
        severity: Severity::parse(&severity)
            .ok_or_else(|| format!("unknown severity `{severity}`"))?,
        category: text("category")?,
        since: text("since")?,
        summary: text("summary")?,
        sources: root
            .get("sources")
            .map(Node::items)
            .unwrap_or(&[])
            .iter()
            .filter_map(Node::scalar_text)
            .map(str::to_string)
            .collect(),
        body: body.trim_start(),
        fixes: body.split_once("\n## Fix\n").is_some_and(|(_, section)| {
            let section = section.trim_start();
            section.starts_with("Safe:") || section.starts_with("Unsafe:")
        }),
    })
}
