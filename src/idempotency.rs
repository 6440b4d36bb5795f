//! What an operation says about retries: its idempotency key carriers, its preconditions, the
//! `x-idempotency` extension, and the request-body properties the heuristics look at.

use crate::config::Settings;
use crate::model::{Operation, Parameter};
use crate::resolve::{At, Bundle, Location};
use crate::source::Node;

/// How an operation lets a client make a retry safe.
#[derive(Debug, Clone)]
pub enum KeyCarrier<'a> {
    Header(&'a Parameter<'a>),
    BodyField(Property<'a>),
    /// `x-idempotency: { key: ... }`: a key idemlint does not know by name.
    Extension {
        key: &'a str,
        at: At<'a>,
    },
}

impl KeyCarrier<'_> {
    /// `header `Idempotency-Key``, `body field `idempotency_key``.
    pub fn describe(&self) -> String {
        match self {
            KeyCarrier::Header(p) => format!("header `{}`", p.name),
            KeyCarrier::BodyField(p) => format!("body field `{}`", p.name),
            KeyCarrier::Extension { key, .. } => format!("`x-idempotency` key `{key}`"),
        }
    }
}

/// The `x-idempotency` operation extension.
#[derive(Debug, Clone, Copy)]
pub enum Declared<'a> {
    /// `x-idempotency: false`: duplicates are harmless by design.
    NotNeeded,
    Policy(At<'a>),
}

pub fn declared<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<Declared<'a>> {
    let ext = bundle.deref(op.extension("x-idempotency")?);
    match ext.node.as_bool() {
        Some(false) => Some(Declared::NotNeeded),
        Some(true) => None,
        None => ext.node.as_map().map(|_| Declared::Policy(ext)),
    }
}

/// Every key carrier the operation declares, headers first.
pub fn key_carriers<'a>(
    bundle: &'a Bundle,
    op: &'a Operation<'a>,
    settings: &Settings,
) -> Vec<KeyCarrier<'a>> {
    let mut out: Vec<KeyCarrier<'a>> = op
        .parameters
        .iter()
        .filter(|p| {
            p.location == "header"
                && settings
                    .key_headers
                    .iter()
                    .any(|h| h.eq_ignore_ascii_case(p.name))
        })
        .map(KeyCarrier::Header)
        .collect();
    out.extend(
        body_properties(bundle, op)
            .into_iter()
            .filter(|p| settings.key_fields.iter().any(|f| f == p.name))
            .map(KeyCarrier::BodyField),
    );
    // A policy without `key` (`{ ttl: 24h }`) documents behaviour but names no key.
    if let Some(Declared::Policy(at)) = declared(bundle, op)
        && let Some(key) = at.node.get("key").and_then(Node::scalar_text)
    {
        out.push(KeyCarrier::Extension { key, at });
    }
    out
}

/// The operation declares an `If-Match` header parameter.
pub fn has_if_match(op: &Operation<'_>) -> bool {
    op.header_param("If-Match").is_some()
}

/// A POST that only reads, judged by the words of its last literal path segment (or webhook
/// name) and its operationId.
pub fn read_only_word<'s>(op: &Operation<'_>, settings: &'s Settings) -> Option<&'s str> {
    let last = op
        .path
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.starts_with('{'))
        .unwrap_or("")
        .to_ascii_lowercase();
    let id = op.operation_id.unwrap_or("").to_ascii_lowercase();
    settings
        .read_only_words
        .iter()
        .find(|w| {
            let w = w.to_ascii_lowercase();
            last.contains(&w) || id.contains(&w)
        })
        .map(String::as_str)
}

/// A top-level property of a request body.
#[derive(Debug, Clone)]
pub struct Property<'a> {
    pub name: &'a str,
    /// The property's key in its `properties` map (or the 2.0 form parameter).
    pub key: Location,
    /// The property's schema, resolved.
    pub schema: At<'a>,
}

/// How deep `allOf`/`oneOf`/`anyOf` composition is followed for top-level properties.
const MAX_COMPOSITION_DEPTH: usize = 8;

/// The top-level properties of every request-body schema of `op` (composition followed), and
/// Swagger 2.0 form fields.
pub fn body_properties<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Vec<Property<'a>> {
    let mut out = Vec::new();
    let Some(body) = &op.request_body else {
        return out;
    };
    for field in &body.form_fields {
        out.push(Property {
            name: field.name,
            key: field.declared,
            schema: field.node,
        });
    }
    let mut seen_schemas = Vec::new();
    for media in &body.content {
        if let Some(schema) = media.schema {
            if seen_schemas.contains(&schema.location()) {
                continue;
            }
            seen_schemas.push(schema.location());
            schema_properties(bundle, schema, 0, &mut out);
        }
    }
    out
}

/// Top-level properties of one schema, through composition keywords.
pub fn schema_properties<'a>(
    bundle: &'a Bundle,
    schema: At<'a>,
    depth: usize,
    out: &mut Vec<Property<'a>>,
) {
    let schema = bundle.deref(schema);
    if let Some(props) = schema.node.get("properties") {
        for e in props.entries() {
            out.push(Property {
                name: &e.key.text,
                key: Location {
                    file: schema.file,
                    span: e.key.span,
                },
                schema: bundle.deref(At {
                    file: schema.file,
                    node: &e.value,
                }),
            });
        }
    }
    if depth >= MAX_COMPOSITION_DEPTH {
        return;
    }
    for keyword in ["allOf", "oneOf", "anyOf"] {
        for member in schema.node.get(keyword).map(Node::items).unwrap_or(&[]) {
            let member = At {
                file: schema.file,
                node: member,
            };
            schema_properties(bundle, member, depth + 1, out);
        }
    }
}
