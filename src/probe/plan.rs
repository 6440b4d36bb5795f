//! What a probe sends to an operation, from the spec: its URL with path and query parameters,
//! its header parameters, its body, JSON or a form (the media type's example, else an instance of its
//! schema, or the `--data` given for it), and where its key goes. An operation that cannot be
//! sent is planned as skipped, with the reason.

use serde_json::Value;

use crate::config::Settings;
use crate::facts::Facts;
use crate::idempotency::KeyCarrier;
use crate::model::{Operation, Site, media_essence};
use crate::resolve::{At, Bundle};

use super::Options;
use super::generate::{instance, written_value};
use super::http::Request;

/// Where an operation's key is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPlace {
    Header(String),
    /// A top-level field of the body.
    Field(String),
}

impl KeyPlace {
    pub fn describe(&self) -> String {
        match self {
            KeyPlace::Header(h) => format!("header `{h}`"),
            KeyPlace::Field(f) => format!("body field `{f}`"),
        }
    }
}

/// What the body's schema says of one of its top-level fields, for changing it to another valid
/// value (`key-reuse-accepted`) or making it fresh for each check (`format: uuid`).
#[derive(Debug, Clone, Default)]
pub struct FieldRule {
    pub enumerated: Vec<Value>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub max_length: Option<usize>,
    /// `format: uuid`.
    pub uuid: bool,
    /// Any other string `format` (a date, an email): not changed.
    pub formatted: bool,
    /// `const`: one value only.
    pub fixed: bool,
}

/// How a body is written on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Json,
    /// `application/x-www-form-urlencoded` (a 3.x media type, or Swagger 2.0 `formData`): the
    /// object's fields as `name=value` pairs, an array's items as repeated pairs, a nested
    /// object's fields as `name[field]=value` (the `deepObject` style form APIs read).
    Form,
}

impl Encoding {
    fn write(self, body: &Value) -> Vec<u8> {
        match self {
            Encoding::Json => serde_json::to_vec(body).unwrap_or_default(),
            Encoding::Form => form_encoded(body).into_bytes(),
        }
    }
}

/// The requests of one operation, before a check gives them their key.
#[derive(Debug, Clone)]
pub struct OperationPlan {
    pub method: &'static str,
    pub url: String,
    /// Header parameters and `--header`s, in that order.
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
    /// How `body` is sent.
    pub encoding: Encoding,
    /// Swagger 2.0 `formData` arrays sent as one value, with the separator their
    /// `collectionFormat` names (`csv`, the default, `ssv`, `tsv`, `pipes`; `multi` is
    /// repeated pairs, as a 3.x form sends an array).
    pub joined: Vec<(String, &'static str)>,
    /// Its `Content-Type`: the spec's media type (`application/vnd.api+json` is not
    /// `application/json` to a JSON:API server).
    pub content_type: String,
    pub key: Option<KeyPlace>,
    /// The spec marks the key `required`.
    pub key_required: bool,
    /// Whether a duplicate of the operation matters.
    pub duplicates_matter: bool,
    /// The statuses the operation declares, as written (`409`, `4XX`).
    pub declared: Vec<String>,
    /// Its `409` declares `Retry-After`.
    pub retry_after_on_409: bool,
    /// The body's top-level fields, as their schemas constrain them.
    pub fields: std::collections::BTreeMap<String, FieldRule>,
    /// Whether the body's `format: uuid` fields are made fresh for each check (not for a
    /// `--data` body).
    pub fresh_uuids: bool,
    /// The status a key reused with another payload must get: the one the operation's
    /// `x-idempotency: {mismatch: …}` names, else the configuration's or profile's (as
    /// `missing-mismatch-response` reads it).
    pub mismatch_status: u16,
}

impl OperationPlan {
    /// The plan for one check: its body's `format: uuid` fields given fresh values (a server
    /// with a unique index on a client-supplied id would refuse a later check's request).
    pub fn for_check(&self) -> OperationPlan {
        let mut plan = self.clone();
        if !self.fresh_uuids {
            return plan;
        }
        if let Some(Value::Object(map)) = plan.body.as_mut() {
            for (name, rule) in &self.fields {
                if rule.uuid
                    && Some(name.as_str()) != self.key_field()
                    && map.get(name).is_some_and(Value::is_string)
                {
                    map.insert(name.clone(), Value::String(super::generate::uuid_v4()));
                }
            }
        }
        plan
    }

    /// The operation's request with `key` where its key goes (none: without it).
    pub fn request(&self, key: Option<&str>) -> Request {
        self.request_with(key, self.body.as_ref())
    }

    /// The request with another body.
    pub fn request_with(&self, key: Option<&str>, body: Option<&Value>) -> Request {
        let mut headers = self.headers.clone();
        let mut body = body.cloned();
        match (&self.key, key) {
            (Some(KeyPlace::Header(h)), Some(k)) => headers.push((h.clone(), k.to_string())),
            (Some(KeyPlace::Field(f)), Some(k)) => {
                if let Some(Value::Object(map)) = body.as_mut() {
                    map.insert(f.clone(), Value::String(k.to_string()));
                }
            }
            (Some(KeyPlace::Field(f)), None) => {
                if let Some(Value::Object(map)) = body.as_mut() {
                    map.remove(f);
                }
            }
            _ => {}
        }
        if body.is_some()
            && !headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        {
            headers.push(("Content-Type".to_string(), self.content_type.clone()));
        }
        Request {
            method: self.method,
            url: self.url.clone(),
            headers,
            body: body.map(|mut b| {
                if let Value::Object(map) = &mut b {
                    for (field, separator) in &self.joined {
                        if let Some(Value::Array(items)) = map.get(field) {
                            let text: Vec<String> = items
                                .iter()
                                .map(|v| match v {
                                    Value::String(s) => s.clone(),
                                    v => v.to_string(),
                                })
                                .collect();
                            map.insert(field.clone(), Value::String(text.join(separator)));
                        }
                    }
                }
                self.encoding.write(&b)
            }),
        }
    }

    /// Whether the operation declares `status` (exactly, or by its range `4XX`).
    pub fn declares(&self, status: u16) -> bool {
        let exact = status.to_string();
        let range = format!("{}XX", status / 100);
        self.declared
            .iter()
            .any(|d| *d == exact || d.eq_ignore_ascii_case(&range))
    }

    /// The body's key field, if the key is one.
    pub fn key_field(&self) -> Option<&str> {
        match &self.key {
            Some(KeyPlace::Field(f)) => Some(f),
            _ => None,
        }
    }
}

/// Whether `op` is the one `selector` names: its operationId, or `METHOD PATH`.
pub fn selects(selector: &str, op: &Operation<'_>) -> bool {
    let selector = selector.trim();
    if op.operation_id.is_some_and(|id| id.as_str() == selector) {
        return true;
    }
    match selector.split_once(char::is_whitespace) {
        Some((method, path)) => {
            method.eq_ignore_ascii_case(op.method.upper()) && path.trim() == op.path.as_str()
        }
        None => false,
    }
}

/// The plan of `op`, or why it cannot be probed.
pub fn plan(
    bundle: &Bundle,
    facts: &Facts<'_>,
    settings: &Settings,
    op: &Operation<'_>,
    opts: &Options,
) -> Result<OperationPlan, String> {
    if !matches!(op.site, Site::Path) {
        return Err("a callback or webhook: the server sends it, it does not receive it".into());
    }
    let of = facts.of(op);
    let key = match of.carriers.first() {
        None => None,
        Some(KeyCarrier::Header(p)) => Some(KeyPlace::Header(p.name.to_string())),
        Some(KeyCarrier::BodyField(p)) if p.parent.is_none() => {
            Some(KeyPlace::Field(p.name.to_string()))
        }
        Some(KeyCarrier::BodyField(p)) => {
            return Err(format!(
                "its key `{}` is a field of `{}`, nested in the body: not probed",
                p.name,
                p.parent.unwrap_or_default()
            ));
        }
        Some(KeyCarrier::Extension { key, .. }) => {
            return Err(format!(
                "its key `{key}` (x-idempotency) says not where it is sent: not probed"
            ));
        }
    };
    let key_required = of.carriers.first().and_then(KeyCarrier::required) == Some(true);
    let key_name = match &key {
        Some(KeyPlace::Header(h)) => Some(h.as_str()),
        _ => None,
    };

    // Path, query and header parameters.
    let mut path = op.path.to_string();
    let mut query = Vec::new();
    let mut headers = Vec::new();
    for p in &op.parameters {
        if key_name.is_some_and(|k| k.eq_ignore_ascii_case(p.name)) {
            continue;
        }
        let given = |name: &str| {
            opts.headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        match p.location {
            "path" => {
                let value = parameter_value(bundle, p)
                    .ok_or_else(|| format!("no value for its path parameter `{}`", p.name))?;
                path = path.replace(&format!("{{{}}}", p.name), &encode(&value));
            }
            "query" if p.required => {
                let value = parameter_value(bundle, p)
                    .ok_or_else(|| format!("no value for its query parameter `{}`", p.name))?;
                query.push(format!("{}={}", encode(p.name), encode(&value)));
            }
            "header" if p.required && !given(p.name) => {
                if matches!(
                    p.name.to_ascii_lowercase().as_str(),
                    "content-type" | "accept" | "authorization"
                ) {
                    continue;
                }
                let value = parameter_value(bundle, p)
                    .ok_or_else(|| format!("no value for its header parameter `{}`", p.name))?;
                if let Some(why) = super::http::unsendable_header(p.name, &value) {
                    return Err(format!(
                        "its header parameter cannot be sent with the spec's value: {why}"
                    ));
                }
                headers.push((p.name.to_string(), value));
            }
            _ => {}
        }
    }
    if path.contains('{') {
        return Err(format!(
            "its path `{path}` has a parameter the spec does not declare"
        ));
    }
    // (A --header naming the key is left out: the probe sends its own keys, and none at all
    // to see what a request without one gets.)
    headers.extend(
        opts.headers
            .iter()
            .filter(|(n, _)| !key_name.is_some_and(|k| k.eq_ignore_ascii_case(n)))
            .cloned(),
    );
    let mut url = format!("{}{}", opts.base, encode_path(&path));
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }

    // The body: --data, else the media type's example or an instance of its schema.
    let given = opts
        .data
        .iter()
        .find(|(sel, _)| selects(sel, op))
        .map(|(_, v)| v.clone());
    let fresh_uuids = given.is_none();
    let (body, encoding, described, content_type) = body(bundle, op, given)?;
    if matches!(key, Some(KeyPlace::Field(_))) && !matches!(body, Some(Value::Object(_))) {
        return Err("its key is a body field, and its body is not an object".into());
    }
    let fields = match &body {
        Some(Value::Object(map)) => map
            .keys()
            .filter_map(|k| {
                let at = match described {
                    Described::Nothing => None,
                    Described::Schema(schema) => property(bundle, schema, k, 0),
                    Described::FormFields(list) => {
                        list.iter().find(|p| p.name == k.as_str()).map(|p| p.node)
                    }
                }?;
                Some((k.clone(), field_rule(bundle, at)))
            })
            .collect(),
        _ => Default::default(),
    };
    let declared: Vec<String> = op.responses.iter().map(|r| r.status.to_string()).collect();
    let retry_after_on_409 = op
        .responses
        .iter()
        .any(|r| r.status == "409" && r.header("Retry-After").is_some());
    Ok(OperationPlan {
        method: op.method.upper(),
        url,
        headers,
        body,
        encoding,
        joined: match described {
            Described::FormFields(list) => list.iter().filter_map(joined).collect(),
            _ => Vec::new(),
        },
        content_type,
        key,
        key_required,
        duplicates_matter: of.duplicates_matter(),
        declared,
        retry_after_on_409,
        fields,
        fresh_uuids,
        mismatch_status: mismatch_status(bundle, settings, op),
    })
}

/// Where a body's fields are described.
#[derive(Clone, Copy)]
enum Described<'o, 'a> {
    Nothing,
    Schema(At<'a>),
    /// Swagger 2.0 `formData` parameters.
    FormFields(&'o [crate::model::Parameter<'a>]),
}

/// An operation's body (`given` by `--data`, else the media type's example, else an instance of
/// its schema or of its `formData` fields), how it is sent, and what describes its fields.
fn body<'o, 'a>(
    bundle: &'a Bundle,
    op: &'o Operation<'a>,
    given: Option<Value>,
) -> Result<(Option<Value>, Encoding, Described<'o, 'a>, String), String> {
    const JSON: &str = "application/json";
    let Some(rb) = &op.request_body else {
        return Ok((given, Encoding::Json, Described::Nothing, JSON.into()));
    };
    let essence = |m: &&crate::model::MediaType<'_>| media_essence(m.media_type);
    let json = rb.content.iter().find(|m| {
        let e = essence(m);
        e == "application/json" || e.ends_with("+json")
    });
    let form = || {
        rb.content
            .iter()
            .find(|m| essence(m) == "application/x-www-form-urlencoded")
    };
    let (media, encoding) = match (json, form()) {
        (Some(m), _) => (m, Encoding::Json),
        (None, Some(m)) => (m, Encoding::Form),
        (None, None) if rb.content.is_empty() && rb.form_fields.is_empty() => {
            return Ok((given, Encoding::Json, Described::Nothing, JSON.into()));
        }
        (None, None) => {
            let kinds: Vec<&str> = rb.content.iter().map(|m| m.media_type).collect();
            // (--data gives JSON or form fields: no help for another media type.)
            return Err(format!(
                "its body is {}: only JSON and form (urlencoded) bodies are probed",
                if kinds.is_empty() {
                    "form fields of no media type".to_string()
                } else {
                    kinds.join(", ")
                }
            ));
        }
    };
    let content_type = media.media_type.to_string();
    let described = match media.schema {
        _ if encoding == Encoding::Form && !rb.form_fields.is_empty() => {
            Described::FormFields(&rb.form_fields)
        }
        Some(schema) => Described::Schema(schema),
        None => Described::Nothing,
    };
    if let Some(v) = given {
        if encoding == Encoding::Form && !v.is_object() {
            return Err(format!(
                "its body is a form ({}), and its --data is not a JSON object of the form's fields",
                media.media_type
            ));
        }
        return Ok((Some(v), encoding, described, content_type));
    }
    if let Described::FormFields(fields) = described {
        let mut map = serde_json::Map::new();
        for f in fields.iter().filter(|f| f.required) {
            if f.node
                .node
                .get("type")
                .and_then(crate::source::Node::as_str)
                == Some("file")
            {
                return Err(format!(
                    "its form field `{}` is a file: file uploads are not probed",
                    f.name
                ));
            }
            let value = written_value(bundle, f.node)
                .or_else(|| f.schema.map(|s| instance(bundle, s)))
                .unwrap_or(Value::String(String::new()));
            map.insert(f.name.to_string(), value);
        }
        return Ok((Some(Value::Object(map)), encoding, described, content_type));
    }
    let node = rb.node.and_then(|n| {
        let n = bundle.deref(n);
        n.get("content").and_then(|c| c.get(media.media_type))
    });
    let example = node.and_then(|at| {
        at.get("example")
            .or(at.get("examples"))
            .and_then(|_| written_value(bundle, at))
    });
    let value = match (example, media.schema) {
        (Some(v), _) => v,
        (None, Some(schema)) => instance(bundle, schema),
        (None, None) => Value::Object(Default::default()),
    };
    if encoding == Encoding::Form && !value.is_object() {
        return Err(format!(
            "its form body ({}) is not an object of fields",
            media.media_type
        ));
    }
    Ok((Some(value), encoding, described, content_type))
}

/// A Swagger 2.0 array form field's separator, unless it is sent as repeated pairs (`multi`).
fn joined(field: &crate::model::Parameter<'_>) -> Option<(String, &'static str)> {
    let node = field.node.node;
    if node.get("type").and_then(crate::source::Node::as_str) != Some("array") {
        return None;
    }
    let format = node
        .get("collectionFormat")
        .and_then(crate::source::Node::as_str);
    let separator = match format.unwrap_or("csv") {
        "multi" => return None,
        "ssv" => " ",
        "tsv" => "\t",
        "pipes" => "|",
        _ => ",",
    };
    Some((field.name.to_string(), separator))
}

/// `body` as `application/x-www-form-urlencoded`: see [`Encoding::Form`].
fn form_encoded(body: &Value) -> String {
    fn pairs(name: &str, value: &Value, out: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    pairs(&format!("{name}[{k}]"), v, out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if item.is_object() || item.is_array() {
                        pairs(&format!("{name}[{i}]"), item, out);
                    } else {
                        pairs(name, item, out);
                    }
                }
            }
            Value::Null => out.push((name.to_string(), String::new())),
            Value::String(s) => out.push((name.to_string(), s.clone())),
            other => out.push((name.to_string(), other.to_string())),
        }
    }
    let mut out = Vec::new();
    if let Value::Object(map) = body {
        for (k, v) in map {
            pairs(k, v, &mut out);
        }
    }
    out.iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The schema of the property `name` of the object schema at `at` (through `allOf`, and the
/// first branch of a `oneOf`/`anyOf`).
fn property<'a>(bundle: &'a Bundle, at: At<'a>, name: &str, depth: usize) -> Option<At<'a>> {
    if depth > 8 {
        return None;
    }
    let at = bundle.deref(at);
    if let Some(p) = at.get("properties").and_then(|p| p.get(name)) {
        return Some(bundle.deref(p));
    }
    if let Some(all) = at.get("allOf") {
        for branch in all.node.items() {
            if let Some(p) = property(bundle, all.with(branch), name, depth + 1) {
                return Some(p);
            }
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(b) = at.get(key)
            && let Some(first) = b.node.items().first()
        {
            return property(bundle, b.with(first), name, depth + 1);
        }
    }
    None
}

fn field_rule(bundle: &Bundle, at: At<'_>) -> FieldRule {
    let at = bundle.deref(at);
    let number = |key: &str| {
        at.node
            .get(key)
            .and_then(crate::source::Node::scalar_text)
            .and_then(|n| n.parse::<f64>().ok())
    };
    let format = at
        .node
        .get("format")
        .and_then(crate::source::Node::as_str)
        .unwrap_or("");
    FieldRule {
        enumerated: at
            .get("enum")
            .map(|e| {
                e.node
                    .items()
                    .iter()
                    .map(super::generate::json_of)
                    .collect()
            })
            .unwrap_or_default(),
        minimum: number("minimum").or(number("exclusiveMinimum").map(|n| n + 1.0)),
        maximum: number("maximum").or(number("exclusiveMaximum").map(|n| n - 1.0)),
        max_length: number("maxLength").map(|n| n as usize),
        uuid: format == "uuid",
        formatted: !format.is_empty() && format != "uuid",
        fixed: at.get("const").is_some(),
    }
}

/// The status the spec gives a key reused with another payload: its `x-idempotency`'s
/// `mismatch`, else the configured (profile's) one.
fn mismatch_status(bundle: &Bundle, settings: &Settings, op: &Operation<'_>) -> u16 {
    let from_policy = match crate::idempotency::declared(bundle, op) {
        Some(crate::idempotency::Declared::Policy(p)) => {
            crate::idempotency::policy_status(p, "mismatch")
        }
        _ => None,
    };
    from_policy
        .and_then(|s| s.parse().ok())
        .or_else(|| settings.mismatch_status.parse().ok())
        .unwrap_or(422)
}

/// A parameter's value as text: what the spec writes for it, else an instance of its schema.
fn parameter_value(bundle: &Bundle, p: &crate::model::Parameter<'_>) -> Option<String> {
    let value = written_value(bundle, p.node).or_else(|| p.schema.map(|s| instance(bundle, s)))?;
    match value {
        Value::String(s) => Some(s),
        Value::Null | Value::Object(_) => None,
        Value::Array(items) => Some(
            items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
        ),
        v => Some(v.to_string()),
    }
}

/// A path as a URI path: what RFC 3986 §3.3 allows in one is kept (the parameters' values are
/// already encoded), any other byte (a space, `"`, `<`, non-ASCII) percent-encoded.
fn encode_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/%".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-encodes what is not unreserved (RFC 3986 §2.3).
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b',') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_body_is_pairs_with_nested_fields_in_brackets() {
        let body = serde_json::json!({
            "amount": 100,
            "live": true,
            "note": null,
            "tags": ["a b", "c&d"],
            "metadata": {"order": "7", "lines": [{"sku": "X"}]},
        });
        assert_eq!(
            form_encoded(&body),
            "amount=100&live=true&metadata%5Blines%5D%5B0%5D%5Bsku%5D=X&metadata%5Border%5D=7\
             &note=&tags=a%20b&tags=c%26d"
        );
        assert_eq!(form_encoded(&serde_json::json!({})), "");
    }

    #[test]
    fn a_path_is_sent_with_what_a_uri_path_cannot_hold_encoded() {
        assert_eq!(
            encode_path("/my orders/\"x\"/<é>"),
            "/my%20orders/%22x%22/%3C%C3%A9%3E"
        );
        assert_eq!(encode_path("/a:b@c/d;e=f/%20"), "/a:b@c/d;e=f/%20");
    }
}
