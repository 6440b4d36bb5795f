//! Typed views over a resolved document, the same for Swagger 2.0 and OpenAPI 3.0/3.1.
//!
//! Views borrow the tree and carry the file of every node, so a rule can report any of them at
//! its source. Partial and wrong documents still give a model: what is missing is `None`.

pub mod build;
mod unloaded;

use ecow::EcoString;

use crate::resolve::{At, Bundle, Location};

pub use build::build;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecVersion {
    Swagger2,
    OpenApi30,
    OpenApi31,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    Get,
    Put,
    Post,
    Delete,
    Options,
    Head,
    Patch,
    Trace,
}

impl Method {
    pub const ALL: [Method; 8] = [
        Method::Get,
        Method::Put,
        Method::Post,
        Method::Delete,
        Method::Options,
        Method::Head,
        Method::Patch,
        Method::Trace,
    ];

    /// The key under a path item: `post`.
    pub fn key(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Put => "put",
            Method::Post => "post",
            Method::Delete => "delete",
            Method::Options => "options",
            Method::Head => "head",
            Method::Patch => "patch",
            Method::Trace => "trace",
        }
    }

    /// As HTTP writes it: `POST`.
    pub fn upper(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Head => "HEAD",
            Method::Patch => "PATCH",
            Method::Trace => "TRACE",
        }
    }
}

/// The callback an operation is declared in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callback {
    /// The callback's name.
    pub name: String,
    /// The operation that declares it, e.g. `POST /subscriptions`.
    pub parent: String,
}

/// Where an operation is declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// Under `paths`.
    Path,
    /// Under an operation's `callbacks` (OpenAPI 3.x). Boxed: callbacks are rare, and every
    /// operation carries a `Site`.
    Callback(Box<Callback>),
    /// Under top-level `webhooks` (OpenAPI 3.1).
    Webhook,
}

#[derive(Debug)]
pub struct Api<'a> {
    pub bundle: &'a Bundle,
    pub version: SpecVersion,
    pub root: At<'a>,
    pub operations: Vec<Operation<'a>>,
    /// Operations that could not be checked: a part the rules read sits behind a `$ref` to a
    /// file that was not loaded. They are not in `operations`, so no rule reports on them.
    pub unchecked: Vec<Unchecked>,
    /// Parts of the document with another type than OpenAPI requires (`paths` as a list, a
    /// parameter without `in`); they are skipped, and `invalid-structure` reports them.
    pub problems: Vec<StructureProblem>,
}

/// An operation set aside: what it needs could not all be loaded.
#[derive(Debug, Clone)]
pub struct Unchecked {
    /// `POST /payments`, as [`Operation::display`] writes it.
    pub display: String,
    /// The method key.
    pub key: Location,
    /// The first `$ref` (its entry) whose file was not loaded.
    pub because: Location,
}

/// A part of the document that is not what OpenAPI says it must be.
#[derive(Debug, Clone)]
pub struct StructureProblem {
    pub at: Location,
    pub message: String,
}

#[derive(Debug)]
pub struct Operation<'a> {
    /// Position in [`Api::operations`], for per-operation caches.
    pub index: usize,
    pub method: Method,
    /// The path template, the callback's URL expression, or the webhook's name.
    pub path: &'a EcoString,
    pub site: Site,
    pub operation_id: Option<&'a EcoString>,
    /// The operation object.
    pub node: At<'a>,
    /// The method key (`post:`), where findings about the operation as a whole point.
    pub key: Location,
    /// Path-level parameters merged in; the operation's own win on the same name and location.
    pub parameters: Vec<Parameter<'a>>,
    pub request_body: Option<RequestBody<'a>>,
    /// The `responses` key of the operation.
    pub responses_key: Option<Location>,
    pub responses: Vec<Response<'a>>,
    /// The other methods its path item declares: a POST beside a GET, PUT or DELETE at the
    /// same path is addressed to a resource that exists, not to a collection it adds to.
    pub neighbours: Vec<Method>,
    /// The parameter of the item path under this path (`Identity` when `/Entities/{Identity}`
    /// sits under `/Entities`): what names one of the resources this path collects.
    pub item_parameter: Option<&'a str>,
    /// That parameter's description where the item path declares one: Recurly's "Shipping
    /// Method ID or code" says an item is also addressed by the `code` a create sends.
    pub item_parameter_description: Option<&'a str>,
    /// Whether the item path under this path has a `confirm` of its own
    /// (`/check-deposits/{checkDepositId}/confirm`): what this path creates is confirmed later.
    pub item_confirmed: bool,
    /// Whether a PUT at the same path replaces one thing (its body an object, not a list):
    /// Xero's `/Employees/{EmployeeID}/ukopeningbalances`, whatever its plural name.
    pub replaced_as_one: bool,
    /// Whether a GET at the same path answers with the very schema this operation answers
    /// with, one object and no list (Xero's `/Employees/{EmployeeID}/PaymentMethods`: read and
    /// made there as one `PaymentMethodObject`): the path holds one thing, not a collection.
    pub read_as_one: bool,
    /// In an API of dotted methods (Slack's `/admin.emoji.add`), the sibling methods of the same
    /// object (the same path but its verb) that remove, delete or read one
    /// (`/admin.emoji.remove`), each with the required fields it addresses one by (`name`), when
    /// this operation requires them all: what it makes may be named by values the client sends.
    pub addressed_as: Vec<(&'a EcoString, Vec<&'a str>)>,
    /// The words of its names, split once for every classifier that reads them
    /// ([`crate::classify`]).
    pub(crate) names: std::sync::OnceLock<NameWords>,
}

impl<'a> Operation<'a> {
    /// Its summary and its description, those it has, in that order: the words rules read.
    pub fn texts(&self) -> impl Iterator<Item = &'a str> + '_ {
        ["summary", "description"].into_iter().filter_map(|key| {
            self.node
                .node
                .get(key)
                .and_then(crate::source::Node::as_str)
        })
    }

    /// `POST /payments`, `webhook POST newPet`, `callback POST {$request.body#/url}`.
    pub fn display(&self) -> String {
        Operation::describe(self.method, self.path, &self.site)
    }

    /// How [`Operation::display`] names the operation at `method`, `path` and `site`.
    pub fn describe(method: Method, path: &str, site: &Site) -> String {
        match site {
            Site::Path => format!("{} {}", method.upper(), path),
            Site::Webhook => format!("{} webhook `{}`", method.upper(), path),
            Site::Callback(cb) => format!(
                "{} {} (callback `{}` of {})",
                method.upper(),
                path,
                cb.name,
                cb.parent
            ),
        }
    }

    /// Whether `loc` lies in this operation's own text. An operation shared through a YAML
    /// anchor or a `$ref` lives elsewhere, and so would all its findings: those then go to the
    /// method key, which is this operation's own.
    pub fn owns(&self, loc: Location) -> bool {
        let own = self.node.location();
        own.file == self.key.file
            && own.file == loc.file
            && own.span.start >= self.key.span.end
            && own.span.contains(loc.span)
    }

    /// `loc` if this operation owns it, else the method key.
    pub fn anchor(&self, loc: Location) -> Location {
        if self.owns(loc) { loc } else { self.key }
    }

    pub fn extension(&self, name: &str) -> Option<At<'a>> {
        self.node.get(name)
    }

    pub fn header_param(&self, name: &str) -> Option<&Parameter<'a>> {
        self.parameters
            .iter()
            .find(|p| p.location == "header" && p.name.eq_ignore_ascii_case(name))
    }

    pub fn response(&self, status: &str) -> Option<&Response<'a>> {
        self.responses.iter().find(|r| r.status == status)
    }
}

#[derive(Debug, Clone)]
pub struct Parameter<'a> {
    pub name: &'a str,
    /// `query`, `header`, `path`, `cookie`, and in Swagger 2.0 also `body` and `formData`.
    pub location: &'a str,
    pub required: bool,
    /// The schema: `schema`, the first `content` entry's schema, or in Swagger 2.0 the parameter
    /// itself (it carries `type`, `maxLength` and so on directly).
    pub schema: Option<At<'a>>,
    pub description: Option<&'a str>,
    /// The resolved parameter object.
    pub node: At<'a>,
    /// Where the operation lists it: the inline object or its `$ref`.
    pub declared: Location,
}

impl Parameter<'_> {
    /// Whether two declarations name the same parameter: same location, same name (header names
    /// compared without case, as HTTP does).
    pub fn same_as(&self, other: &Parameter<'_>) -> bool {
        self.location == other.location
            && if self.location == "header" {
                self.name.eq_ignore_ascii_case(other.name)
            } else {
                self.name == other.name
            }
    }
}

#[derive(Debug, Clone)]
pub struct RequestBody<'a> {
    /// The resolved request body (3.x), or the `in: body` parameter (2.0); `None` for a 2.0
    /// body made only of `formData` parameters.
    pub node: Option<At<'a>>,
    pub content: Vec<MediaType<'a>>,
    /// Swagger 2.0 `in: formData` parameters, which are body fields.
    pub form_fields: Vec<Parameter<'a>>,
}

/// `application/merge-patch+json; charset=utf-8` → `application/merge-patch+json`, lower case.
pub fn media_essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

#[derive(Debug, Clone)]
pub struct MediaType<'a> {
    pub media_type: &'a str,
    pub schema: Option<At<'a>>,
}

#[derive(Debug, Clone)]
pub struct Response<'a> {
    /// The status key as written: `409`, `4XX`, `default`.
    pub status: &'a str,
    /// The status key in the operation's `responses`.
    pub key: Location,
    /// The resolved response object.
    pub node: At<'a>,
    /// The value under the status key: the response itself or its `$ref`.
    pub declared: Location,
    pub description: Option<&'a str>,
    pub headers: Vec<Header<'a>>,
}

impl<'a> Response<'a> {
    pub fn header(&self, name: &str) -> Option<&Header<'a>> {
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
    }
}

#[derive(Debug, Clone)]
pub struct Header<'a> {
    pub name: &'a str,
    pub node: At<'a>,
    pub schema: Option<At<'a>>,
}

/// The words of an operation's names that the classifiers judge (`classify.rs` splits them, once
/// an operation): its last literal path segment (an OData action's name), its operationId (after
/// a namespace), and its summary (else the first sentence of its description).
#[derive(Debug)]
pub(crate) struct NameWords {
    pub(crate) seg: Vec<String>,
    pub(crate) id: Vec<String>,
    pub(crate) lead: Vec<String>,
}
