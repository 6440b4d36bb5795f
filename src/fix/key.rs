//! The fix of an operation without an idempotency key: a required key header, as a `$ref` to
//! the API's own key parameter. Which parameter is found once a document ([`KeyParameter`]):
//! the component other operations already refer to for the key (the most used), else a
//! component of the root document that declares the header, else one created in the root
//! document (`components/parameters/IdempotencyKey` in OpenAPI 3.x, `parameters/IdempotencyKey`
//! in Swagger 2.0), whose edit every fix then carries (written once, however many apply).

use std::collections::HashMap;

use super::editor::Refusal;
use super::value::Value;
use super::{Edit, Fix};
use crate::idempotency::KeyCarrier;
use crate::model::{Operation, SpecVersion};
use crate::resolve::{At, Bundle, FileId, PointerCache};
use crate::rules::Context;

/// The key parameter the operations' `$ref`s name.
#[derive(Debug, Clone)]
pub struct KeyParameter {
    /// The header's name, as the API spells it.
    pub name: String,
    /// Whether the parameter is required (`required: true`; one made is).
    pub required: bool,
    /// The file and JSON pointer of the parameter component.
    file: FileId,
    pointer: String,
    /// The edits that create the component, when the API has none.
    create: Vec<Edit>,
}

/// What the description of a created key parameter says: what the key is, how long it is kept
/// (the configured minimum lifetime), and what a concurrent or mismatched request gets (409,
/// and the configured mismatch status).
fn description(cx: &Context<'_>) -> String {
    let seconds = cx.settings.min_ttl_seconds.max(1);
    let kept = if seconds.is_multiple_of(86_400) && seconds > 86_400 {
        format!("{} days", seconds / 86_400)
    } else if seconds.is_multiple_of(3600) {
        format!("{} hours", seconds / 3600)
    } else {
        format!("{seconds} seconds")
    };
    format!(
        "A unique key (a UUID) the client generates for one request and sends again with each \
         retry of it. A retry within {kept}, while the key is kept, gets the original response; \
         a request while another with the same key is still in progress gets 409 with \
         Retry-After; the same key with another body gets {}.",
        cx.settings.mismatch_status
    )
}

/// The API's key parameter, found or planned (see the module's notes).
pub fn key_parameter(cx: &Context<'_>) -> Result<KeyParameter, Refusal> {
    let bundle = cx.bundle;
    let api = cx.api;
    // The header the API's keyed operations use, and how many take their key in the body.
    let mut headers: HashMap<String, (usize, usize, &str)> = HashMap::new();
    let mut in_body = 0;
    let mut used: HashMap<(FileId, u32, u32), usize> = HashMap::new();
    for (i, op) in api.operations.iter().enumerate() {
        for carrier in cx.carriers(op) {
            match carrier {
                KeyCarrier::Header(p) => {
                    let e = headers
                        .entry(p.name.to_ascii_lowercase())
                        .or_insert((0, i, p.name));
                    e.0 += 1;
                    // A parameter listed by `$ref`: its component.
                    if p.node.location() != p.declared {
                        *used
                            .entry((p.node.file, p.node.node.span.start, p.node.node.span.end))
                            .or_default() += 1;
                    }
                }
                KeyCarrier::BodyField(_) => in_body += 1,
                KeyCarrier::Extension { .. } => {}
            }
        }
    }
    let usual = headers
        .values()
        .max_by_key(|(n, first, _)| (*n, std::cmp::Reverse(*first)))
        .map(|(_, _, name)| name.to_string());
    if usual.is_none() && in_body > 0 {
        return Err(
            "the API's other operations take their key in the request body: add the \
                    same property to this body"
                .into(),
        );
    }
    // Else the configuration's first key header (`Idempotency-Key` unless a profile says
    // otherwise), so that the header made is one the rules take for a key.
    let configured = &cx.settings.key_headers;
    let name = match usual {
        Some(name) => name,
        None => configured
            .iter()
            .find(|h| h.eq_ignore_ascii_case("Idempotency-Key"))
            .or(configured.first())
            .cloned()
            .ok_or("no key header is configured (`key-headers` is empty)")?,
    };
    let mut pointers = PointerCache::default();
    // The component most operations already refer to.
    if let Some(((file, start, end), _)) = used
        .iter()
        .filter(|((file, start, end), _)| {
            let node_name = find_node(bundle, *file, *start, *end)
                .and_then(|n| n.node.get("name"))
                .and_then(|n| n.as_str());
            node_name.is_some_and(|n| n.eq_ignore_ascii_case(&name))
        })
        .max_by_key(|((file, start, _), n)| (**n, std::cmp::Reverse((*file, *start))))
    {
        let root = &bundle.file(*file).root;
        let pointer = pointers.pointer_to(
            root,
            crate::source::Span::new(*start as usize, *end as usize),
        );
        if !pointer.is_empty() {
            let required = find_node(bundle, *file, *start, *end).is_some_and(required);
            return Ok(KeyParameter {
                name,
                required,
                file: *file,
                pointer,
                create: Vec::new(),
            });
        }
    }
    let swagger = api.version == SpecVersion::Swagger2;
    let root = bundle.root();
    let components = if swagger {
        Some(root)
    } else {
        root.get("components")
    };
    let section = components.and_then(|c| c.get("parameters"));
    // A component of the root that declares the header.
    if let Some(section) = section {
        for e in section.node.entries() {
            let p = bundle.deref(section.with(&e.value));
            let declares = p.node.get("in").and_then(|n| n.as_str()) == Some("header")
                && p.node
                    .get("name")
                    .and_then(|n| n.as_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(&name));
            if declares {
                return Ok(KeyParameter {
                    name,
                    required: required(p),
                    file: Bundle::ROOT,
                    pointer: format!(
                        "{}/parameters/{}",
                        if swagger { "" } else { "/components" },
                        escape(&e.key.text)
                    ),
                    create: Vec::new(),
                });
            }
        }
    }
    // None: one is made.
    let taken = |candidate: &str| section.is_some_and(|s| s.node.get(candidate).is_some());
    let component = std::iter::once("IdempotencyKey".to_string())
        .chain((2..).map(|n| format!("IdempotencyKey{n}")))
        .find(|c| !taken(c))
        .expect("an unused name");
    let schema = [
        ("type", Value::str("string")),
        ("maxLength", Value::Int(255)),
    ];
    let mut entries = vec![
        ("name", Value::str(name.clone())),
        ("in", Value::str("header")),
        ("required", Value::Bool(true)),
        ("description", Value::str(description(cx))),
    ];
    if swagger {
        entries.extend(schema);
    } else {
        entries.push(("schema", Value::map(schema)));
    }
    let parameter = Value::map(entries);
    let edit = match (components, section) {
        (_, Some(section)) if section.node.as_map().is_some() => {
            cx.editor.add_entry(section, &component, &parameter)?
        }
        (_, Some(_)) => return Err("the API's `parameters` section is not a mapping".into()),
        (Some(components), None) if components.node.as_map().is_some() => cx.editor.add_entry(
            components,
            "parameters",
            &Value::map([(component.as_str(), parameter)]),
        )?,
        (Some(_), None) => return Err("the API's `components` is not a mapping".into()),
        (None, None) => cx.editor.add_entry(
            root,
            "components",
            &Value::map([("parameters", Value::map([(component.as_str(), parameter)]))]),
        )?,
    };
    Ok(KeyParameter {
        name,
        required: true,
        file: Bundle::ROOT,
        pointer: format!(
            "{}/parameters/{}",
            if swagger { "" } else { "/components" },
            escape(&component)
        ),
        create: vec![edit],
    })
}

/// Whether a parameter says `required: true`.
fn required(parameter: At<'_>) -> bool {
    parameter.node.get("required").and_then(|r| r.as_bool()) == Some(true)
}

/// The node of `file` spanning `start..end`, found from the file's root.
fn find_node(bundle: &Bundle, file: FileId, start: u32, end: u32) -> Option<At<'_>> {
    let root = &bundle.file(file).root;
    let mut node = root;
    loop {
        if node.span.start == start && node.span.end == end {
            return Some(At { file, node });
        }
        let inside = |n: &crate::source::Node| n.span.start <= start && end <= n.span.end;
        node = match &node.value {
            crate::source::Value::Map(entries) => {
                &entries.iter().rev().find(|e| inside(&e.value))?.value
            }
            crate::source::Value::Seq(items) => items.iter().find(|n| inside(n))?,
            crate::source::Value::Scalar(_) => return None,
        };
    }
}

/// A key as a JSON pointer writes it (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The fix that gives `op` the key parameter: unsafe, as clients must then send a header they
/// do not send yet (a configuration may count it safe).
pub fn fix(cx: &Context<'_>, op: &Operation<'_>) -> Result<Fix, Refusal> {
    let key = cx.key_parameter()?;
    // (An operation that lists the header already, not taken for a key, would list it twice.)
    if op.header_param(&key.name).is_some() {
        return Err(format!(
            "it declares a `{}` header already, which is not taken for a key: check its \
             description and the configuration's `key-headers`",
            key.name
        )
        .into());
    }
    let reference = cx.editor.reference(op.node.file, key.file, &key.pointer);
    let item = Value::reference(reference);
    let add = match op.node.get("parameters") {
        Some(list) if list.node.as_seq().is_some() => cx.editor.add_item(list, &item)?,
        Some(_) => return Err("the operation's `parameters` is not a list written out".into()),
        None => cx
            .editor
            .add_entry(op.node, "parameters", &Value::Seq(vec![item]))?,
    };
    // (The operation's edit first: where both insert at one place, the end of a file whose
    // last operation is also its last entry, the operation's lines must come before the new
    // top-level `components`.)
    let mut edits = vec![add];
    edits.extend(key.create.iter().cloned());
    Ok(Fix::unsafe_(
        format!("Require the `{}` header", key.name),
        edits,
    ))
}
