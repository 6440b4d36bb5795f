//! Settings the rules read, and the configuration file and profiles that set them. Defaults
//! follow ../shared/RULES.md (the `ietf` profile).

mod file;
mod profile;
mod scalar;
mod schema;

pub use file::{CONFIG_NAMES, Config, ConfigError, Level, Override, find_config_file};
pub use profile::{PROFILES, apply_profile, profile_name};
pub use schema::schema_json;

use crate::vocabulary::MONEY_WORDS;

/// What counts as an idempotency key and which POSTs are read-only.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Header parameter names that carry a key, compared case-insensitively.
    pub key_headers: Vec<String>,
    /// Top-level request-body property names that carry a key, compared without case and
    /// separators (`IdempotencyKey` is `idempotency_key`).
    pub key_fields: Vec<String>,
    /// Words that, found in a POST's last path segment or operationId, mark it read-only.
    /// RULES.md's list plus `retrieve`, for batch reads such as Square's `bulk-retrieve`.
    pub read_only_words: Vec<String>,
    /// Verbs that, opening an operation's summary ("Get a list of ..."), mark a POST read-only.
    pub reading_verbs: Vec<String>,
    /// The status a key reused with a different payload gets (the profile decides; IETF: 422).
    pub mismatch_status: String,
    /// Key lifetimes shorter than this are reported (`short-key-ttl`).
    pub min_ttl_seconds: u64,
    /// Words that, as the head noun of the last path segment or operationId, mean the
    /// operation moves money.
    pub money_words: Vec<String>,
    /// Rules whose unsafe fixes count as safe (`fix: {safe: [...]}`).
    pub safe_fixes: Vec<crate::catalogue::RuleId>,
}

impl Default for Settings {
    fn default() -> Self {
        let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Settings {
            key_headers: strings(&[
                "Idempotency-Key",
                "X-Idempotency-Key",
                "Idempotency-Token",
                "X-Idempotency-Token",
                "PayPal-Request-Id",
                "Repeatability-Request-ID",
                "Cko-Idempotency-Key",
                "x-amz-pay-idempotency-key",
                "Request-Idempotency-Key",
            ]),
            key_fields: strings(&[
                "idempotency_key",
                "idempotencyKey",
                "request_id",
                "requestId",
                "client_token",
                "clientToken",
                "client_request_token",
                "clientRequestToken",
            ]),
            read_only_words: strings(&[
                "search",
                "query",
                "lookup",
                "validate",
                "verification",
                "estimate",
                "calculate",
                "preview",
                "retrieve",
                "token",
                "login",
                "graphql",
            ]),
            reading_verbs: strings(&[
                "get", "list", "fetch", "check", "read", "find", "show", "describe",
            ]),
            mismatch_status: "422".to_string(),
            min_ttl_seconds: 24 * 3600,
            money_words: strings(MONEY_WORDS),
            safe_fixes: Vec::new(),
        }
    }
}
