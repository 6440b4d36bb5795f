//! The JSON Schema (draft-07, the draft yaml-language-server knows best) of `.idemlint.yaml`,
//! made from the tables the loader reads with: its settings (`TOP_KEYS`, `OVERRIDE_KEYS`), the
//! rule catalogue and the profiles. A setting the loader learns without a line here panics the
//! schema's test, so editors never offer less, or more, than `check` accepts.
//! `schemas/idemlint.schema.json` holds the output (`tests/schema.rs` keeps them equal).

use serde_json::{Value, json};

use super::PROFILES;
use super::file::{OVERRIDE_KEYS, TOP_KEYS};
use super::scalar::{EMPTY_GLOB_PATTERN, STATUS_MAX, STATUS_MIN, STATUS_PATTERN, duration_pattern};
use crate::catalogue::RuleId;

/// What a rule may be set to, as `Level::parse` reads it.
const LEVELS: [&str; 4] = ["off", "info", "warning", "error"];

/// The schema, pretty-printed, with a final newline.
pub fn schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a schema serializes");
    text.push('\n');
    text
}

fn schema() -> Value {
    let properties: serde_json::Map<String, Value> = TOP_KEYS
        .iter()
        .map(|key| (key.to_string(), setting(key)))
        .collect();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "idemlint configuration (.idemlint.yaml)",
        "description": "Settings for idemlint, the linter of OpenAPI operations that are unsafe to \
            retry: a profile, rule levels, what counts as an idempotency key, and overrides for \
            some files. `idemlint config schema` prints this schema.",
        // Null too: an empty file, or one holding only `~`, is no settings to the loader.
        "type": ["object", "null"],
        "properties": properties,
        "additionalProperties": false,
        "definitions": {
            "rules": rules(),
            "glob": {
                "description": "A glob relative to this file's folder; not empty, nor only `./`, \
                    which match no file.",
                "type": "string",
                "minLength": 1,
                "not": {"pattern": EMPTY_GLOB_PATTERN}
            },
            // An override's `files`: at least one glob, or it would apply to no file.
            "globs": {
                "description": "A glob, or a non-empty list of globs, relative to this file's \
                    folder.",
                "anyOf": [
                    {"$ref": "#/definitions/glob"},
                    {"type": "array", "items": {"$ref": "#/definitions/glob"}, "minItems": 1}
                ]
            }
        }
    })
}

/// The schema of the top-level setting `key`, described as the README describes it.
fn setting(key: &str) -> Value {
    let words = |description: &str| {
        json!({
            "description": description,
            "type": "array",
            "items": {"type": "string", "minLength": 1}
        })
    };
    match key {
        "extends" => json!({
            "description": format!(
                "The profile this file refines, in any case (default `ietf`): {}. \
                 `--profile` wins over it.",
                PROFILES.join(", ")
            ),
            "anyOf": [
                {"enum": PROFILES},
                {"type": "string", "pattern": any_case(PROFILES)}
            ]
        }),
        // One glob alone is read as a list of one, as by the loader.
        "exclude" => json!({
            "description": "Documents not to lint: globs relative to this file's folder, matched \
                against the file and each folder above it (`legacy/**`, `drafts`).",
            "anyOf": [
                {"$ref": "#/definitions/glob"},
                {"type": "array", "items": {"$ref": "#/definitions/glob"}}
            ]
        }),
        "rules" => json!({"$ref": "#/definitions/rules"}),
        "key-headers" => words(
            "Header parameters that carry an idempotency key, compared case-insensitively. \
             Replaces the profile's list.",
        ),
        "key-fields" => words(
            "Top-level request-body properties that carry an idempotency key, compared without \
             case and separators (`IdempotencyKey` is `idempotency_key`). Replaces the profile's \
             list.",
        ),
        "read-only-words" => words(
            "Words that, heading an operationId or ending a path, say a POST only reads \
             (`search`, `validate`). Replaces the default list.",
        ),
        "money-words" => words(
            "Words that, as the head noun of the last path segment or operationId, say an \
             operation moves money (`payment`, `refund`). Replaces the default list.",
        ),
        "min-ttl" => json!({
            "description": "The shortest documented key lifetime that is not reported by \
                short-key-ttl: whole seconds, or a duration: counts of s, m, h, d, w (or \
                seconds, minutes, hours, days, weeks, months), like `24h`, `90m`, `1 day`, \
                `1.5 hours` or `1d 12h`.",
            "anyOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "pattern": duration_pattern()}
            ]
        }),
        "mismatch-status" => json!({
            "description": "The status a key reused with another payload gets, that \
                missing-mismatch-response asks for (the profile's: 422 for ietf, 400 for stripe).",
            "anyOf": [
                {"type": "integer", "minimum": STATUS_MIN, "maximum": STATUS_MAX},
                {"type": "string", "pattern": STATUS_PATTERN}
            ]
        }),
        "overrides" => json!({
            "description": "Rule levels for some files, or for the findings under a JSON \
                pointer in them; later entries win.",
            "type": "array",
            "items": override_()
        }),
        "fix" => json!({
            "description": "What `check --fix` may apply.",
            "type": "object",
            "properties": {
                "safe": {
                    "description": "Rules whose unsafe fixes `--fix` applies as if they were \
                        safe (a team that has decided every POST takes the key).",
                    "type": "array",
                    "items": {"enum": ids()}
                }
            },
            "additionalProperties": false
        }),
        other => unreachable!("the loader reads `{other}`, which the schema does not describe"),
    }
}

/// One entry of `overrides`.
fn override_() -> Value {
    let properties: serde_json::Map<String, Value> = OVERRIDE_KEYS
        .iter()
        .map(|&key| {
            let schema = match key {
                "files" => json!({"$ref": "#/definitions/globs"}),
                "pointer" => json!({
                    "description": "Only findings under this JSON pointer, e.g. \
                        `/paths/~1internal`.",
                    "type": "string",
                    "pattern": "^/"
                }),
                "rules" => json!({"$ref": "#/definitions/rules"}),
                other => unreachable!("the loader reads override `{other}`, undescribed here"),
            };
            (key.to_string(), schema)
        })
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": ["rules"],
        "additionalProperties": false
    })
}

/// `rules:`: each rule id, with its summary and default, to a level.
fn rules() -> Value {
    let properties: serde_json::Map<String, Value> = RuleId::ALL
        .iter()
        .map(|rule| {
            let meta = rule.meta();
            let description = format!(
                "{} (default {}; {}).",
                meta.summary.trim_end_matches('.'),
                meta.severity,
                meta.category
            );
            (
                rule.as_str().to_string(),
                json!({"description": description, "enum": LEVELS}),
            )
        })
        .collect();
    json!({
        "description": "Rule levels: a rule id to off, info, warning or error.",
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    })
}

fn ids() -> Vec<&'static str> {
    RuleId::ALL.iter().map(|r| r.as_str()).collect()
}

/// A pattern matching any of `names` in any case, as `profile_name` compares them (ECMA-262
/// patterns have no case-insensitive flag inside a schema).
fn any_case(names: &[&str]) -> String {
    let alternatives: Vec<String> = names
        .iter()
        .map(|name| {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphabetic() {
                        format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
                    } else {
                        regex_escape(c)
                    }
                })
                .collect()
        })
        .collect();
    format!("^({})$", alternatives.join("|"))
}

fn regex_escape(c: char) -> String {
    if "\\^$.|?*+()[]{}".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_every_setting_and_rule_the_loader_reads() {
        let schema = schema();
        let top: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut keys = TOP_KEYS.to_vec();
        keys.sort();
        assert_eq!(top, keys);
        let rules = schema["definitions"]["rules"]["properties"]
            .as_object()
            .unwrap();
        assert_eq!(rules.len(), RuleId::ALL.len());
        assert_eq!(
            any_case(&["google-aip"]),
            "^([Gg][Oo][Oo][Gg][Ll][Ee]-[Aa][Ii][Pp])$"
        );
    }
}
