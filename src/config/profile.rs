//! Built-in profiles (RULES.md): what an API style counts as a key, which status a mismatched
//! key gets, whether an optional key is worth a word, how long keys must live.

use std::collections::HashMap;

use super::{Level, Settings};
use crate::catalogue::Severity;

/// Every profile, the default first.
pub const PROFILES: &[&str] = &["ietf", "stripe", "zalando", "google-aip", "azure"];

/// The profile `name` stands for, compared case-insensitively (`Stripe`, `ZALANDO`); `Err` says
/// it is none, with the closest one or the list.
pub fn profile_name(name: &str) -> Result<&'static str, String> {
    if let Some(known) = PROFILES.iter().find(|p| p.eq_ignore_ascii_case(name)) {
        return Ok(known);
    }
    let lower = name.to_ascii_lowercase();
    Err(
        match crate::suggest::closest(&lower, PROFILES.iter().copied()) {
            Some(n) => format!("unknown profile `{name}`; did you mean `{n}`?"),
            None => format!(
                "unknown profile `{name}`; profiles: {}",
                PROFILES.join(", ")
            ),
        },
    )
}

/// Applies profile `name` (in any case) over `settings` and `levels`, and returns its canonical
/// name; `Err` names the known profiles.
pub fn apply_profile(
    name: &str,
    settings: &mut Settings,
    levels: &mut HashMap<String, Level>,
) -> Result<&'static str, String> {
    let name = profile_name(name)?;
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
        other => unreachable!("profile_name returned `{other}`, which has no settings"),
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_applies_in_any_case_under_its_own_name() {
        for &p in PROFILES {
            for name in [p.to_string(), p.to_ascii_uppercase()] {
                let mut settings = Settings::default();
                let mut levels = HashMap::new();
                assert_eq!(apply_profile(&name, &mut settings, &mut levels), Ok(p));
            }
        }
        assert_eq!(
            profile_name("Strpe"),
            Err("unknown profile `Strpe`; did you mean `stripe`?".to_string())
        );
    }
}
