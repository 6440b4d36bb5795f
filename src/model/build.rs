//! Builds an [`Api`] from a [`Bundle`].

use super::{
    Api, Header, MediaType, Method, Operation, Parameter, RequestBody, Response, Site, SpecVersion,
};
use crate::resolve::{At, Bundle, Location};
use crate::source::Node;

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
        operations: Vec::new(),
        callback_items: Default::default(),
    };
    if let Some(paths) = root.get("paths") {
        for e in paths.node.entries() {
            if !e.key.text.starts_with('/') {
                continue; // `x-` extensions
            }
            let item = paths.with(&e.value);
            b.path_item(item, &e.key.text, Site::Path, 0);
        }
    }
    if version != SpecVersion::Swagger2
        && let Some(hooks) = root.get("webhooks")
    {
        for e in hooks.node.entries() {
            let item = hooks.with(&e.value);
            b.path_item(item, &e.key.text, Site::Webhook, 0);
        }
    }
    Ok(Api {
        bundle,
        version,
        root,
        operations: b.operations,
    })
}

struct Builder<'a> {
    bundle: &'a Bundle,
    version: SpecVersion,
    root: At<'a>,
    operations: Vec<Operation<'a>>,
    /// Callback path items already read: a callback that refers back to a path item it is
    /// reached from is read once, not once per level.
    callback_items: std::collections::HashSet<Location>,
}

impl<'a> Builder<'a> {
    fn deref(&self, at: At<'a>) -> At<'a> {
        self.bundle.deref(at)
    }

    fn child(&self, at: At<'a>, key: &str) -> Option<At<'a>> {
        at.get(key).map(|c| self.deref(c))
    }

    fn path_item(&mut self, item: At<'a>, path: &'a str, site: Site, depth: usize) {
        let item = self.deref(item);
        let shared = self.parameters(item.get("parameters"));
        for method in Method::ALL {
            let Some(entry) = item.node.get_entry(method.key()) else {
                continue;
            };
            let op = self.deref(item.with(&entry.value));
            if op.node.as_map().is_none() {
                continue;
            }
            let key = Location {
                file: item.file,
                span: entry.key.span,
            };
            let mut parameters = shared.clone();
            for p in self.parameters(op.get("parameters")) {
                match parameters.iter_mut().find(|q| q.same_as(&p)) {
                    Some(q) => *q = p,
                    None => parameters.push(p),
                }
            }
            let request_body = self.request_body(op, &mut parameters);
            let (responses_key, responses) = self.responses(op);
            let operation = Operation {
                index: self.operations.len(),
                method,
                path,
                site: site.clone(),
                operation_id: op.node.get("operationId").and_then(Node::as_str),
                node: op,
                key,
                parameters,
                request_body,
                responses_key,
                responses,
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
                let site = Site::Callback {
                    name: cb.key.text.to_string(),
                    parent: parent.to_string(),
                };
                self.path_item(item, &expr.key.text, site, depth + 1);
            }
        }
    }

    fn parameters(&self, list: Option<At<'a>>) -> Vec<Parameter<'a>> {
        let Some(list) = list else {
            return Vec::new();
        };
        let list = self.deref(list);
        list.node
            .items()
            .iter()
            .filter_map(|p| {
                let declared = list.with(p);
                self.parameter(declared)
            })
            .collect()
    }

    fn parameter(&self, declared: At<'a>) -> Option<Parameter<'a>> {
        let node = self.deref(declared);
        let name = node.node.get("name").and_then(Node::scalar_text)?;
        let location = node.node.get("in").and_then(Node::as_str).unwrap_or("");
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
        let content = match self.child(body, "content") {
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
                .collect(),
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
        let list = responses
            .node
            .entries()
            .iter()
            .filter(|e| !e.key.text.starts_with("x-"))
            .map(|e| {
                let node = self.deref(responses.with(&e.value));
                Response {
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
                }
            })
            .collect();
        (Some(key), list)
    }

    fn headers(&self, response: At<'a>) -> Vec<Header<'a>> {
        let Some(headers) = self.child(response, "headers") else {
            return Vec::new();
        };
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
            .collect()
    }
}
