//! Builds an [`Api`] from a [`Bundle`].

use super::unloaded::Reach;
use super::{
    Api, Callback, Header, MediaType, Method, Operation, Parameter, RequestBody, Response, Site,
    SpecVersion, StructureProblem, Unchecked,
};
use crate::resolve::{At, Bundle, Location};
use crate::source::{Node, ScalarKind, Value};
use ecow::EcoString;
use std::cell::RefCell;
use std::collections::HashSet;

/// Callbacks may declare callbacks; real documents nest one level, we follow a few.
const MAX_CALLBACK_DEPTH: usize = 3;

/// Why a document is not an OpenAPI root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotOpenApi(pub String);

/// The version a root document declares, or why it is not one we read.
pub fn spec_version(root: &Node) -> Result<SpecVersion, NotOpenApi> {
    if root.as_map().is_none() {
        return Err(NotOpenApi(
            "not an OpenAPI document: the top level is not a mapping".to_string(),
        ));
    }
    if let Some(v) = root.get("openapi") {
        let text = v.scalar_text().unwrap_or_default();
        return if text.starts_with("3.0") {
            Ok(SpecVersion::OpenApi30)
        } else if text.starts_with("3.1") {
            Ok(SpecVersion::OpenApi31)
        } else if text.starts_with("3.") {
            // A later 3.x keeps 3.1's shape.
            Ok(SpecVersion::OpenApi31)
        } else {
            Err(NotOpenApi(format!(
                "unsupported `openapi` version `{text}`: idemlint reads 2.0, 3.0 and 3.1"
            )))
        };
    }
    if let Some(v) = root.get("swagger") {
        let text = v.scalar_text().unwrap_or_default();
        return if text.starts_with('2') {
            Ok(SpecVersion::Swagger2)
        } else {
            Err(NotOpenApi(format!(
                "unsupported `swagger` version `{text}`: idemlint reads 2.0, 3.0 and 3.1"
            )))
        };
    }
    Err(NotOpenApi(
        "not an OpenAPI document: no top-level `openapi` or `swagger` key".to_string(),
    ))
}

pub fn build(bundle: &Bundle) -> Result<Api<'_>, NotOpenApi> {
    let root = bundle.root();
    let version = spec_version(root.node)?;
    let mut b = Builder {
        bundle,
        version,
        root,
        operations: Vec::with_capacity(count_operations(bundle, root)),
        callback_items: Default::default(),
        problems: Default::default(),
        unchecked: Vec::new(),
        reach: bundle.incomplete().then(|| Reach::new(bundle)),
    };
    if let Some(paths) = root.get("paths")
        && b.expect(paths, Shape::Map, || "`paths`".into())
    {
        for e in paths.node.entries() {
            if !e.key.text.starts_with('/') {
                continue; // `x-` extensions
            }
            let item = paths.with(&e.value);
            b.path_item(item, &e.key.text, Site::Path, 0);
        }
        // `/Entities/{Identity}` under `/Entities`: the parameter that names an item. (A query
        // written into a path key, OpenAI's `/responses?beta=true`, is no part of the path.)
        fn bare(path: &str) -> &str {
            path.split('?').next().unwrap_or(path).trim_end_matches('/')
        }
        // Collections whose item path has a `confirm` under it.
        let confirmed: std::collections::HashSet<&str> = paths
            .node
            .entries()
            .iter()
            .filter_map(|e| {
                let item = bare(&e.key.text).strip_suffix("/confirm")?;
                let (prefix, last) = item.rsplit_once('/')?;
                (last.starts_with('{') && last.ends_with('}')).then_some(prefix)
            })
            .collect();
        if !confirmed.is_empty() {
            for op in b.operations.iter_mut().filter(|op| op.site == Site::Path) {
                op.item_confirmed = confirmed.contains(bare(op.path));
            }
        }
        // Paths whose PUT replaces one thing, an object, not a list of them.
        let replaced_as_one: std::collections::HashSet<&str> = b
            .operations
            .iter()
            .filter(|op| op.site == Site::Path && op.method == Method::Put)
            .filter(|op| {
                op.request_body.as_ref().is_some_and(|body| {
                    let schemas: Vec<_> = body.content.iter().filter_map(|m| m.schema).collect();
                    !schemas.is_empty()
                        && schemas.iter().all(|s| {
                            let s = b.bundle.deref(*s);
                            // (3.1 writes a list that may be null as `type: [array, "null"]`.)
                            s.node.get("items").is_none()
                                && s.node.get("type").and_then(Node::as_str) != Some("array")
                                && !s
                                    .node
                                    .get("type")
                                    .map(Node::items)
                                    .unwrap_or(&[])
                                    .iter()
                                    .any(|t| t.as_str() == Some("array"))
                        })
                })
            })
            .map(|op| bare(op.path))
            .collect();
        if !replaced_as_one.is_empty() {
            for op in b.operations.iter_mut().filter(|op| op.site == Site::Path) {
                op.replaced_as_one = replaced_as_one.contains(bare(op.path));
            }
        }
        // Paths whose GET answers one object (no list, at the top or in an envelope's
        // field), by the node of its schema: a POST there answered with the same schema makes
        // or sets that one thing.
        // A schema every call answers with (an `ApiResponse` wrapper of a `code`, a `message`
        // and some `data`) says nothing of what one path holds: only one answered at a single
        // path counts.
        // Each operation's success schema, found once (`None` off the paths).
        let answers: Vec<Option<At<'_>>> = b
            .operations
            .iter()
            .map(|op| {
                (op.site == Site::Path)
                    .then(|| success_schema(b.bundle, op))
                    .flatten()
            })
            .collect();
        let mut answered_at: std::collections::HashMap<*const Node, HashSet<&str>> =
            std::collections::HashMap::new();
        for (op, schema) in b.operations.iter().zip(&answers) {
            if let Some(schema) = schema {
                answered_at
                    .entry(std::ptr::from_ref(schema.node))
                    .or_default()
                    .insert(bare(op.path));
            }
        }
        let read_as_one: std::collections::HashMap<&str, *const Node> = b
            .operations
            .iter()
            .zip(&answers)
            .filter(|(op, _)| op.method == Method::Get)
            .filter_map(|(op, schema)| {
                let schema = (*schema)?;
                let node = std::ptr::from_ref(schema.node);
                (answered_at.get(&node).is_some_and(|paths| paths.len() == 1)
                    && one_object(b.bundle, schema))
                .then(|| (bare(op.path), node))
            })
            .collect();
        if !read_as_one.is_empty() {
            for (op, schema) in b.operations.iter_mut().zip(&answers) {
                op.read_as_one = op.method == Method::Post
                    && read_as_one.get(bare(op.path)).is_some_and(|read| {
                        schema.is_some_and(|made| std::ptr::eq(made.node, *read))
                    });
            }
        }
        let items: std::collections::HashMap<&str, &str> = paths
            .node
            .entries()
            .iter()
            .filter_map(|e| {
                let (prefix, last) = bare(&e.key.text).rsplit_once('/')?;
                let name = last.strip_prefix('{')?.strip_suffix('}')?;
                Some((prefix, name))
            })
            .collect();
        if !items.is_empty() {
            // What an operation at the item path says of its parameter.
            let described: std::collections::HashMap<&str, &str> = b
                .operations
                .iter()
                .filter(|op| op.site == Site::Path)
                .filter_map(|op| {
                    let path: &str = op.path;
                    let (prefix, last) = bare(path).rsplit_once('/')?;
                    let name = last.strip_prefix('{')?.strip_suffix('}')?;
                    let p = op
                        .parameters
                        .iter()
                        .find(|p| p.location == "path" && p.name == name)?;
                    Some((prefix, p.description?))
                })
                .collect();
            for op in &mut b.operations {
                if op.site == Site::Path {
                    op.item_parameter = items.get(bare(op.path)).copied();
                    op.item_parameter_description = described.get(bare(op.path)).copied();
                }
            }
        }
    }
    address_dotted_methods(bundle, &mut b.operations);
    if version != SpecVersion::Swagger2
        && let Some(hooks) = root.get("webhooks")
        && b.expect(hooks, Shape::Map, || "`webhooks`".into())
    {
        for e in hooks.node.entries() {
            let item = hooks.with(&e.value);
            b.path_item(item, &e.key.text, Site::Webhook, 0);
        }
    }
    let mut problems = b.problems.into_inner().list;
    problems.sort_by_key(|p| (p.at.file, p.at.span.start));
    Ok(Api {
        bundle,
        version,
        root,
        operations: b.operations.fitted(),
        unchecked: b.unchecked,
        problems,
    })
}

/// What a part of the document must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Map,
    Seq,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Map => "a mapping",
            Shape::Seq => "a sequence",
        }
    }
}

fn found(node: &Node) -> &'static str {
    match &node.value {
        Value::Map(_) => "a mapping",
        Value::Seq(_) => "a sequence",
        Value::Scalar(s) => match s.kind {
            crate::source::ScalarKind::Str => "a string",
            crate::source::ScalarKind::Int | crate::source::ScalarKind::Float => "a number",
            crate::source::ScalarKind::Bool => "a boolean",
            crate::source::ScalarKind::Null => "null",
        },
    }
}

/// Parts of the document whose type is not the one OpenAPI requires, each reported once even
/// when a shared component is reached from many places.
#[derive(Default)]
struct Problems {
    list: Vec<StructureProblem>,
    seen: HashSet<Location>,
}

struct Builder<'a> {
    bundle: &'a Bundle,
    version: SpecVersion,
    root: At<'a>,
    operations: Vec<Operation<'a>>,
    /// Callback path items already read: a callback that refers back to a path item it is
    /// reached from is read once, not once per level.
    callback_items: std::collections::HashSet<Location>,
    problems: RefCell<Problems>,
    /// Operations set aside because a part the rules read was not loaded.
    unchecked: Vec<Unchecked>,
    /// Present when some `$ref` of the bundle names a file that was not loaded.
    reach: Option<Reach<'a>>,
}

impl<'a> Builder<'a> {
    /// Whether `at` has the shape `what` must have; records a problem when it has another.
    /// Null reads as absent, and an unresolved `$ref` is reported by `unresolved-ref` instead.
    fn expect(&self, at: At<'a>, shape: Shape, what: impl FnOnce() -> String) -> bool {
        let ok = match (&at.node.value, shape) {
            (Value::Map(_), Shape::Map) | (Value::Seq(_), Shape::Seq) => true,
            (Value::Scalar(s), _) if s.kind == crate::source::ScalarKind::Null => return false,
            (Value::Map(_), _) if at.node.get("$ref").is_some() => return false,
            _ => false,
        };
        if !ok {
            self.problem(
                at.location(),
                format!(
                    "{} must be {}, not {}",
                    what(),
                    shape.name(),
                    found(at.node)
                ),
            );
        }
        ok
    }

    fn problem(&self, at: Location, message: String) {
        let mut problems = self.problems.borrow_mut();
        if problems.seen.insert(at) {
            problems.list.push(StructureProblem { at, message });
        }
    }

    fn deref(&self, at: At<'a>) -> At<'a> {
        self.bundle.deref(at)
    }

    fn child(&self, at: At<'a>, key: &str) -> Option<At<'a>> {
        at.get(key).map(|c| self.deref(c))
    }

    /// Sets aside the operation `display` at `key` when `at`, its object, is a `$ref` into a file
    /// that was not loaded; whether it was.
    fn unloaded(&mut self, at: At<'a>, key: Location, display: impl FnOnce() -> String) -> bool {
        let Some(because) = self.reach.as_ref().and_then(|reach| reach.chain(at)) else {
            return false;
        };
        self.unchecked.push(Unchecked {
            display: display(),
            key,
            because,
        });
        true
    }

    fn path_item(&mut self, item: At<'a>, path: &'a EcoString, site: Site, depth: usize) {
        let what = match site {
            Site::Webhook => "webhook",
            Site::Callback(_) => "callback path item",
            Site::Path => "path item",
        };
        // A path item in a file that was not loaded: its operations are unknown, and it counts
        // as one operation not checked.
        if self.unloaded(item, item.location(), || format!("{what} `{path}`")) {
            return;
        }
        let item = self.deref(item);
        if !self.expect(item, Shape::Map, || format!("{what} `{path}`")) {
            return;
        }
        let shared = self.parameters(item.get("parameters"));
        for method in Method::ALL {
            let Some(entry) = item.node.get_entry(method.key()) else {
                continue;
            };
            let key = Location {
                file: item.file,
                span: entry.key.span,
            };
            if self.unloaded(item.with(&entry.value), key, || {
                Operation::describe(method, path, &site)
            }) {
                continue;
            }
            let op = self.deref(item.with(&entry.value));
            if !self.expect(op, Shape::Map, || {
                format!("operation `{} {path}`", method.key().to_uppercase())
            }) {
                continue;
            }
            let unloaded = self
                .reach
                .as_mut()
                .and_then(|reach| reach.first_unloaded(item, op));
            if let Some(because) = unloaded {
                let display = Operation::describe(method, path, &site);
                self.unchecked.push(Unchecked {
                    key,
                    because,
                    display: display.clone(),
                });
                if depth < MAX_CALLBACK_DEPTH && self.version != SpecVersion::Swagger2 {
                    self.callbacks(op, &display, depth);
                }
                continue;
            }
            let mut parameters = shared.clone();
            for p in self.parameters(op.get("parameters")) {
                match parameters.iter_mut().find(|q| q.same_as(&p)) {
                    Some(q) => *q = p,
                    None => parameters.push(p),
                }
            }
            let request_body = self.request_body(op, &mut parameters);
            parameters.shrink_to_fit();
            let (responses_key, responses) = self.responses(op);
            let operation = Operation {
                index: self.operations.len(),
                method,
                path,
                site: site.clone(),
                operation_id: op
                    .node
                    .get("operationId")
                    .and_then(Node::as_scalar)
                    .filter(|s| s.kind == ScalarKind::Str)
                    .map(|s| &s.text),
                node: op,
                key,
                parameters,
                request_body,
                responses_key,
                responses,
                neighbours: Method::ALL
                    .into_iter()
                    .filter(|m| *m != method && item.node.get(m.key()).is_some())
                    .collect(),
                item_parameter: None,
                item_parameter_description: None,
                item_confirmed: false,
                replaced_as_one: false,
                read_as_one: false,
                addressed_as: Vec::new(),
                names: std::sync::OnceLock::new(),
            };
            let parent = operation.display();
            self.operations.push(operation);
            if depth < MAX_CALLBACK_DEPTH && self.version != SpecVersion::Swagger2 {
                self.callbacks(op, &parent, depth);
            }
        }
    }

    fn callbacks(&mut self, op: At<'a>, parent: &str, depth: usize) {
        let Some(callbacks) = self.child(op, "callbacks") else {
            return;
        };
        if !self.expect(callbacks, Shape::Map, || "`callbacks`".into()) {
            return;
        }
        for cb in callbacks.node.entries() {
            let cb_node = self.deref(callbacks.with(&cb.value));
            for expr in cb_node.node.entries() {
                if expr.key.text.starts_with("x-") {
                    continue;
                }
                let item = self.deref(cb_node.with(&expr.value));
                if !self.callback_items.insert(item.location()) {
                    continue;
                }
                let site = Site::Callback(Box::new(Callback {
                    name: cb.key.text.to_string(),
                    parent: parent.to_string(),
                }));
                self.path_item(item, &expr.key.text, site, depth + 1);
            }
        }
    }

    fn parameters(&self, list: Option<At<'a>>) -> Vec<Parameter<'a>> {
        let Some(list) = list else {
            return Vec::new();
        };
        let list = self.deref(list);
        if !self.expect(list, Shape::Seq, || "`parameters`".into()) {
            return Vec::new();
        }
        list.node
            .items()
            .iter()
            .filter_map(|p| {
                let declared = list.with(p);
                self.parameter(declared)
            })
            .collect::<Vec<_>>()
            .fitted()
    }

    fn parameter(&self, declared: At<'a>) -> Option<Parameter<'a>> {
        let node = self.deref(declared);
        if !self.expect(node, Shape::Map, || "a parameter".into()) {
            return None;
        }
        if node.node.get("$ref").is_some() {
            return None; // unresolved: `unresolved-ref` says so
        }
        // Null reads as absent, as everywhere else.
        let present = |key: &str| node.node.get(key).filter(|v| !v.is_null());
        let name = match present("name") {
            None => {
                self.problem(node.location(), "parameter has no `name`".to_string());
                return None;
            }
            Some(v) => match v.scalar_text() {
                Some("") => {
                    self.problem(
                        node.with(v).location(),
                        "parameter has an empty `name`".into(),
                    );
                    return None;
                }
                Some(text) => text,
                None => {
                    let message = format!("parameter `name` must be a string, not {}", found(v));
                    self.problem(node.with(v).location(), message);
                    return None;
                }
            },
        };
        // Without a valid `in` the parameter is nowhere: no client sends it.
        let location = match present("in") {
            None => {
                let places = self.parameter_places();
                self.problem(
                    node.location(),
                    format!("parameter `{name}` has no `in` ({places})"),
                );
                return None;
            }
            Some(v) => match v.scalar_text() {
                Some(place) if self.parameter_places().split(", ").any(|p| p == place) => place,
                // OpenAPI 3.2's whole-query-string parameter; later 3.x are read as 3.1.
                Some("querystring") if self.version == SpecVersion::OpenApi31 => "querystring",
                Some(other) => {
                    let places = self.parameter_places();
                    self.problem(
                        node.with(v).location(),
                        format!(
                            "parameter `{name}` has `in: {other}`, which is not one of {places}"
                        ),
                    );
                    return None;
                }
                None => {
                    let message = format!(
                        "parameter `{name}`: `in` must be a string, not {}",
                        found(v)
                    );
                    self.problem(node.with(v).location(), message);
                    return None;
                }
            },
        };
        let schema = self.schema_of(node);
        Some(Parameter {
            name,
            location,
            required: node.node.get("required").and_then(Node::as_bool) == Some(true),
            schema,
            description: node.node.get("description").and_then(Node::as_str),
            node,
            declared: declared.location(),
        })
    }

    /// Where a parameter may be, as OpenAPI's `in` lists it.
    fn parameter_places(&self) -> &'static str {
        if self.version == SpecVersion::Swagger2 {
            "query, header, path, formData, body"
        } else {
            "query, header, path, cookie"
        }
    }

    /// The schema of a parameter or header: `schema`, the first `content` entry's schema, or in
    /// Swagger 2.0 the object itself (it carries `type`, `maxLength` and so on directly).
    fn schema_of(&self, at: At<'a>) -> Option<At<'a>> {
        match self.child(at, "schema") {
            Some(s) => Some(s),
            None if self.version == SpecVersion::Swagger2 => Some(at),
            None => self.first_content_schema(at),
        }
    }

    fn first_content_schema(&self, at: At<'a>) -> Option<At<'a>> {
        let content = self.child(at, "content")?;
        let first = content.node.entries().first()?;
        let media = self.deref(content.with(&first.value));
        self.child(media, "schema")
    }

    /// The request body; Swagger 2.0 `body` and `formData` parameters move out of `params`.
    fn request_body(&self, op: At<'a>, params: &mut Vec<Parameter<'a>>) -> Option<RequestBody<'a>> {
        if self.version == SpecVersion::Swagger2 {
            let body = params.iter().position(|p| p.location == "body");
            let body = body.map(|i| params.remove(i));
            let mut form_fields = Vec::new();
            params.retain(|p| {
                if p.location == "formData" {
                    form_fields.push(p.clone());
                    false
                } else {
                    true
                }
            });
            if body.is_none() && form_fields.is_empty() {
                return None;
            }
            let consumes = op
                .node
                .get("consumes")
                .or_else(|| self.root.node.get("consumes"));
            let types: Vec<&'a str> = consumes
                .map(|c| c.items().iter().filter_map(Node::as_str).collect())
                .unwrap_or_default();
            let schema = body.as_ref().and_then(|b| self.child(b.node, "schema"));
            let content = if types.is_empty() {
                let default = if body.is_some() {
                    "application/json"
                } else {
                    "application/x-www-form-urlencoded"
                };
                vec![MediaType {
                    media_type: default,
                    schema,
                }]
            } else {
                types
                    .into_iter()
                    .map(|media_type| MediaType { media_type, schema })
                    .collect()
            };
            return Some(RequestBody {
                node: body.map(|b| b.node),
                content,
                form_fields,
            });
        }
        let body = self.child(op, "requestBody")?;
        if !self.expect(body, Shape::Map, || "`requestBody`".into()) {
            return None;
        }
        let content = match self
            .child(body, "content")
            .filter(|c| self.expect(*c, Shape::Map, || "`content`".into()))
        {
            Some(content) => content
                .node
                .entries()
                .iter()
                .map(|e| {
                    let media = self.deref(content.with(&e.value));
                    MediaType {
                        media_type: &e.key.text,
                        schema: self.child(media, "schema"),
                    }
                })
                .collect::<Vec<_>>()
                .fitted(),
            None => Vec::new(),
        };
        Some(RequestBody {
            node: Some(body),
            content,
            form_fields: Vec::new(),
        })
    }

    fn responses(&self, op: At<'a>) -> (Option<Location>, Vec<Response<'a>>) {
        let Some(entry) = op.node.get_entry("responses") else {
            return (None, Vec::new());
        };
        let key = Location {
            file: op.file,
            span: entry.key.span,
        };
        let responses = self.deref(op.with(&entry.value));
        if !self.expect(responses, Shape::Map, || "`responses`".into()) {
            return (Some(key), Vec::new());
        }
        let list = responses
            .node
            .entries()
            .iter()
            .filter(|e| !e.key.text.starts_with("x-"))
            .filter_map(|e| {
                let node = self.deref(responses.with(&e.value));
                if !self.expect(node, Shape::Map, || format!("response `{}`", e.key.text)) {
                    return None;
                }
                Some(Response {
                    status: &e.key.text,
                    key: Location {
                        file: responses.file,
                        span: e.key.span,
                    },
                    node,
                    declared: Location {
                        file: responses.file,
                        span: e.value.span,
                    },
                    description: node.node.get("description").and_then(Node::as_str),
                    headers: self.headers(node),
                })
            })
            .collect::<Vec<_>>()
            .fitted();
        (Some(key), list)
    }

    fn headers(&self, response: At<'a>) -> Vec<Header<'a>> {
        let Some(headers) = self.child(response, "headers") else {
            return Vec::new();
        };
        if !self.expect(headers, Shape::Map, || "`headers`".into()) {
            return Vec::new();
        }
        headers
            .node
            .entries()
            .iter()
            .map(|e| {
                let node = self.deref(headers.with(&e.value));
                Header {
                    name: &e.key.text,
                    node,
                    schema: self.schema_of(node),
                }
            })
            .collect::<Vec<_>>()
            .fitted()
    }
}

/// How many operations `paths` and `webhooks` declare (callbacks aside), so that the operations
/// vector is allocated once: on a large spec it is tens of megabytes, and growing it by doubling
/// copies it and faults in fresh memory again and again.
fn count_operations(bundle: &Bundle, root: At<'_>) -> usize {
    let items = |key: &str| {
        root.node
            .get(key)
            .map(Node::entries)
            .unwrap_or_default()
            .iter()
            .filter(|e| !e.key.text.starts_with("x-"))
    };
    items("paths")
        .chain(items("webhooks"))
        .map(|e| {
            let item = bundle.deref(root.with(&e.value)).node;
            Method::ALL
                .iter()
                .filter(|m| item.get_entry(m.key()).is_some())
                .count()
        })
        .sum()
}

/// Operations, parameters and responses are built once per run and kept to its end; a vector
/// grown by `push` or `collect` holds room for at least four, most of it unused here.
trait Fitted {
    fn fitted(self) -> Self;
}

impl<T> Fitted for Vec<T> {
    fn fitted(mut self) -> Self {
        self.shrink_to_fit();
        self
    }
}

/// [`Operation::addressed_as`], for every POST of an API of dotted methods.
fn address_dotted_methods<'a>(bundle: &'a Bundle, operations: &mut [Operation<'a>]) {
    // `/api/admin.emoji.add` → (`/api/admin.emoji`, `add`): the object is the whole path but
    // its verb, so `/v1/emoji.add` and `/v2/emoji.remove` are not siblings.
    fn object_and_verb(path: &str) -> Option<(&str, &str)> {
        let (object, verb) = path.rsplit_once('.')?;
        let last = object.rsplit('/').next()?;
        (!last.is_empty() && !verb.is_empty() && !verb.contains('/')).then_some((object, verb))
    }
    // The fields a call requires, the auth `token` Slack sends as a field aside.
    let required = |op: &Operation<'a>| -> Vec<&'a str> {
        // (Swagger 2.0's form fields are the body's.)
        let form_fields = op.request_body.iter().flat_map(|b| &b.form_fields);
        let mut names: Vec<&'a str> = op
            .parameters
            .iter()
            .chain(form_fields)
            .filter(|p| p.required && matches!(p.location, "query" | "formData"))
            .map(|p| p.name)
            .collect();
        for media in op.request_body.iter().flat_map(|b| &b.content) {
            if let Some(schema) = media.schema.map(|s| bundle.deref(s)) {
                names.extend(
                    schema
                        .node
                        .get("required")
                        .map(Node::items)
                        .unwrap_or(&[])
                        .iter()
                        .filter_map(Node::as_str),
                );
            }
        }
        names.retain(|n| *n != "token");
        names.sort_unstable();
        names.dedup();
        names
    };
    let addressing_verb = |verb: &str| matches!(verb, "remove" | "delete" | "info" | "get");
    // The methods that remove, delete or read one, by object, in the order of the paths.
    let mut addressing: std::collections::HashMap<&str, Vec<(&'a EcoString, Vec<&'a str>)>> =
        std::collections::HashMap::new();
    for op in operations.iter().filter(|op| op.site == Site::Path) {
        let path: &'a EcoString = op.path;
        if let Some((object, verb)) = object_and_verb(path)
            && addressing_verb(verb)
        {
            let fields = required(op);
            if !fields.is_empty() {
                addressing.entry(object).or_default().push((path, fields));
            }
        }
    }
    if addressing.is_empty() {
        return;
    }
    for op in operations
        .iter_mut()
        .filter(|op| op.site == Site::Path && op.method == Method::Post)
    {
        // (A call that makes one: `add`, `create`, `addAlias`; not `invite` or `end`, which act
        // on one that exists.)
        let path: &'a EcoString = op.path;
        let Some((object, verb)) = object_and_verb(path) else {
            continue;
        };
        let Some(siblings) = addressing.get(object) else {
            continue;
        };
        if !crate::heuristics::words(verb)
            .first()
            .is_some_and(|w| matches!(w.as_str(), "add" | "create"))
        {
            continue;
        }
        let own = required(op);
        op.addressed_as = siblings
            .iter()
            .filter(|(_, fields)| fields.iter().all(|f| own.contains(f)))
            .cloned()
            .collect();
    }
}

/// The schema of an operation's first success that has one (its first media type's, or a
/// Swagger 2.0 `schema`), its `$ref` followed.
fn success_schema<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<At<'a>> {
    op.responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .find_map(|r| {
            let schema = match r.node.node.get("content") {
                Some(content) => {
                    let first = content.entries().first()?;
                    first.value.get("schema")?
                }
                None => r.node.node.get("schema")?,
            };
            Some(bundle.deref(r.node.with(schema)))
        })
}

/// Whether a schema is one object: properties, none of them a list (an envelope's `data: []`
/// or `leaveTypes: []` makes it a page of many) or a free-form `data` or `result` (a wrapper of
/// anything), and no list itself. (A list inside the one thing, a payment method's
/// `bankAccounts`, is its own.)
fn one_object(bundle: &Bundle, schema: At<'_>) -> bool {
    let list = |s: At<'_>| {
        s.node.get("items").is_some()
            || s.node.get("type").is_some_and(|t| {
                t.as_str() == Some("array") || t.items().iter().any(|t| t.as_str() == Some("array"))
            })
    };
    let Some(properties) = schema.node.get("properties") else {
        return false;
    };
    !list(schema)
        && !properties.entries().is_empty()
        && properties.entries().iter().all(|e| {
            let field = bundle.deref(schema.with(&e.value));
            let free_form = field.node.get("properties").is_none()
                && field.node.get("allOf").is_none()
                && field.node.get("type").and_then(Node::as_str) == Some("object");
            let wrapper = free_form && matches!(e.key.text.as_str(), "data" | "result" | "results");
            !list(field) && !wrapper
        })
}
