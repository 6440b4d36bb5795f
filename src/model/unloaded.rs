//! Which operations could not be read whole. When a `$ref` in a part the rules read (parameters,
//! request body, responses and their headers, `x-idempotency`) names a file withheld by a policy
//! (remote while remote references are off, outside the project root, or past the `$ref`
//! budget), the operation may have a key, a 409 or an `If-Match` that idemlint cannot see. Such
//! an operation is counted as "not checked" instead of being reported for what it seems to lack.
//! A reference that is broken (a missing file, a fetch that failed) is an `unresolved-ref` error
//! to fix, and the operation is checked with what is there.

use std::collections::HashSet;

use crate::resolve::{At, Bundle, Location, holds_refs, is_name_map};
use crate::source::{ScalarKind, Value};

/// Finds unloaded `$ref`s under operations, remembering the referenced parts already found
/// whole so that a schema shared by a thousand operations is walked once.
pub struct Reach<'a> {
    bundle: &'a Bundle,
    /// Targets of `$ref`s whose whole reach is loaded.
    whole: HashSet<Location>,
}

impl<'a> Reach<'a> {
    pub fn new(bundle: &'a Bundle) -> Self {
        Reach {
            bundle,
            whole: HashSet::new(),
        }
    }

    /// The `$ref` of `at`'s chain of `$ref`s whose file was withheld, if the chain breaks so.
    pub fn chain(&self, at: At<'a>) -> Option<Location> {
        chain_end(self.bundle, at).err()
    }

    /// The first `$ref` (its entry) in the parts of `op` the rules read, or of its path item's
    /// `parameters`, whose file was withheld.
    pub fn first_unloaded(&mut self, path_item: At<'a>, op: At<'a>) -> Option<Location> {
        let bundle = self.bundle;
        let mut walk = Walk {
            reach: self,
            stack: Vec::new(),
            seen: HashSet::new(),
        };
        for (part, key) in [
            (path_item, "parameters"),
            (op, "parameters"),
            (op, "requestBody"),
            (op, "x-idempotency"),
        ] {
            if let Some(node) = part.get(key) {
                // Their keys are keywords (or they are lists): reached as through no name map.
                walk.stack.push((node, None));
            }
        }
        if let Some(hit) = walk.run() {
            return Some(hit);
        }
        // Of a response, the rules read its status, description and headers, never its body:
        // a response schema in an unloaded file changes nothing they report.
        if let Some(responses) = op.get("responses") {
            let responses = match chain_end(bundle, responses) {
                Ok(at) => at,
                Err(hit) => return Some(hit),
            };
            for e in responses.node.entries() {
                let response = match chain_end(bundle, responses.with(&e.value)) {
                    Ok(at) => at,
                    Err(hit) => return Some(hit),
                };
                if let Some(headers) = response.get("headers") {
                    walk.stack.push((headers, Some("headers")));
                }
            }
            if let Some(hit) = walk.run() {
                return Some(hit);
            }
        }
        let Walk { seen, .. } = walk;
        self.whole.extend(seen);
        None
    }
}

/// One operation's walk: nodes still to visit, with the key each was reached through.
struct Walk<'r, 'a> {
    reach: &'r mut Reach<'a>,
    stack: Vec<(At<'a>, Option<&'a str>)>,
    /// `$ref` targets visited in this walk.
    seen: HashSet<Location>,
}

/// An unloaded `$ref` met while walking.
type Found = Location;

/// Follows `at`'s `$ref` chain to its end. `Err` holds the first `$ref` of the chain whose file
/// was withheld; a chain that ends on nothing (a missing pointer, a cycle) ends where it broke,
/// which `unresolved-ref` reports.
fn chain_end<'a>(bundle: &'a Bundle, mut at: At<'a>) -> Result<At<'a>, Found> {
    for _ in 0..64 {
        let Some((entry, target)) = ref_entry(at) else {
            return Ok(at);
        };
        if bundle.withholds(at.file, target) {
            return Err(entry);
        }
        match bundle.one_hop(at.file, target) {
            Some(next) => at = next,
            None => return Ok(at),
        }
    }
    Ok(at)
}

impl<'a> Walk<'_, 'a> {
    /// Visits everything on the stack; the first unloaded `$ref` met, if any.
    fn run(&mut self) -> Option<Found> {
        let bundle = self.reach.bundle;
        while let Some((at, via)) = self.stack.pop() {
            match &at.node.value {
                Value::Map(entries) => {
                    let names = is_name_map(via);
                    for e in entries.iter() {
                        let key = &*e.key.text;
                        if !names {
                            if key == "$ref" {
                                let Some(target) = e.value.as_str() else {
                                    continue;
                                };
                                if bundle.withholds(at.file, target) {
                                    return Some(Location {
                                        file: at.file,
                                        span: e.key.span.cover(e.value.span),
                                    });
                                }
                                if let Some(next) = bundle.one_hop(at.file, target) {
                                    let loc = next.location();
                                    if !self.reach.whole.contains(&loc) && self.seen.insert(loc) {
                                        self.stack.push((next, None));
                                    }
                                }
                                continue;
                            }
                            if !holds_refs(key) {
                                continue;
                            }
                        }
                        self.stack.push((at.with(&e.value), Some(key)));
                    }
                }
                Value::Seq(items) => {
                    self.stack
                        .extend(items.iter().map(|item| (at.with(item), None)));
                }
                Value::Scalar(_) => {}
            }
        }
        None
    }
}

/// The `$ref` entry of a mapping (key through value) and its target, if it is a string.
fn ref_entry(at: At<'_>) -> Option<(Location, &str)> {
    let e = at.node.get_entry("$ref")?;
    let target = e
        .value
        .as_scalar()
        .filter(|s| s.kind == ScalarKind::Str)
        .map(|s| s.text.as_str())?;
    Some((
        Location {
            file: at.file,
            span: e.key.span.cover(e.value.span),
        },
        target,
    ))
}
