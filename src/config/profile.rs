//! Built-in profiles (RULES.md): what an API style counts as a key, which status a mismatched
//! key gets, whether an optional key is worth a word, how long keys must live.

use std::collections::HashMap;

use super::{Level, Settings};
use crate::diagnostic::Severity;

/// Every profile, the default first.
pub const PROFILES: &[&str] = &["ietf", "stripe", "zalando", "google-aip", "azure"];

/// Applies profile `name` over `settings` and `levels`; `Err` names the known profiles.
pub fn apply_profile(
    name: &str,
    settings: &mut Settings,
    levels: &mut HashMap<String, Level>,
) -> Result<(), String> {
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut set = |rule: &str, level: Level| {
        levels.insert(rule.to_string(), level);
    };
    match name {
        // The IETF draft: the defaults.
        "ietf" => {}
        // Stripe and Zalando: `Idempotency-Key`, a mismatch is a 400, optional keys are normal.
        "stripe" | "zalando" => {
            settings.key_headers = strings(&["Idempotency-Key"]);
            settings.key_fields = Vec::new();
            settings.mismatch_status = "400".to_string();
            set("idempotency-key-optional", Level::Off);
        }
        // Google AIP-155: an optional `request_id` field; no mismatch status; an hour is enough.
        "google-aip" => {
            settings.key_headers = Vec::new();
            settings.key_fields = strings(&["request_id", "requestId"]);
            settings.min_ttl_seconds = 3600;
            set("idempotency-key-optional", Level::Off);
            set("missing-mismatch-response", Level::Off);
        }
        // Azure / OASIS Repeatable Requests: the Repeatability headers, required; 400 on a
        // mismatched reuse; a window of minutes.
        "azure" => {
            settings.key_headers = strings(&["Repeatability-Request-ID"]);
            settings.key_fields = Vec::new();
            settings.mismatch_status = "400".to_string();
            settings.min_ttl_seconds = 300;
            set("idempotency-key-optional", Level::On(Severity::Error));
        }
        other => {
            let near = crate::suggest::closest(other, PROFILES.iter().copied());
            return Err(match near {
                Some(n) => format!("unknown profile `{other}`; did you mean `{n}`?"),
                None => format!(
                    "unknown profile `{other}`; profiles: {}",
                    PROFILES.join(", ")
                ),
            });
        }
    }
    Ok(())
}
