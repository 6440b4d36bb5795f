//! The runtime rules, one file each: the requests a check sends to an operation (in batches: a
//! batch of one is sent alone, a larger one all at the same moment) and its verdict on what came
//! back.

pub mod concurrent_retry_mishandled;
pub mod duplicate_created;
pub mod key_reuse_accepted;
pub mod missing_key_accepted;
pub mod replay_not_idempotent;

use serde_json::Value;

use crate::catalogue::RuleId;

use super::http::{Exchange, Failure, Request, Response};
use super::plan::OperationPlan;

/// What a check asks of the run beyond the plan.
pub struct Settings<'a> {
    /// JSON pointers left out when bodies are compared (`--ignore-field`).
    pub ignore: &'a [String],
    /// Requests sent at once by `concurrent-retry-mishandled`.
    pub concurrency: usize,
    /// `--unkeyed`: operations without a key are sent twice (`duplicate-created`).
    pub unkeyed: bool,
}

/// A check's verdict on one operation.
#[derive(Debug, Clone)]
pub enum Verdict {
    Pass,
    Finding {
        message: String,
        /// The retry created a second resource: the key is not honoured at all.
        second_resource: bool,
    },
    /// The answers do not let the check judge (the first request failed, the budget ran out).
    NotJudged(String),
}

impl Verdict {
    fn finding(message: String) -> Verdict {
        Verdict::Finding {
            message,
            second_resource: false,
        }
    }
}

/// Requests sent in batches: a batch of one alone, a larger one all at the same moment.
pub type Batches = Vec<Vec<Request>>;

/// A runtime check.
pub struct Check {
    pub rule: RuleId,
    /// The batches of requests it sends to the operation, or why it does not apply there.
    pub batches: fn(&OperationPlan, &Settings<'_>) -> Result<Batches, String>,
    pub judge: fn(&OperationPlan, &Settings<'_>, &[Vec<Exchange>]) -> Verdict,
}

/// The checks, in the order they run on an operation: the replay first, since the checks after
/// it presuppose a key that is honoured.
pub static CHECKS: &[Check] = &[
    replay_not_idempotent::CHECK,
    concurrent_retry_mishandled::CHECK,
    key_reuse_accepted::CHECK,
    missing_key_accepted::CHECK,
    duplicate_created::CHECK,
];

/// Why the exchanges cannot be judged, if a request was not sent for want of budget, or the
/// first request got no answer in time (a retry that hangs after a first answer is the server's
/// behaviour, and each check judges it).
fn unanswered(exchanges: &[Vec<Exchange>]) -> Option<Verdict> {
    if exchanges
        .iter()
        .flatten()
        .any(|x| matches!(x.response, Err(Failure::Budget)))
    {
        return Some(Verdict::NotJudged("the request budget is spent".into()));
    }
    let first = exchanges.first()?;
    if !first.is_empty()
        && first
            .iter()
            .all(|x| matches!(x.response, Err(Failure::Timeout)))
    {
        return Some(Verdict::NotJudged(
            "the first request got no response within --timeout".into(),
        ));
    }
    None
}

/// What a retry that got no response is told: within the timeout, or the connection broke.
fn no_answer(e: &Failure) -> String {
    match e {
        Failure::Timeout => "no answer within --timeout".to_string(),
        e => format!("no response ({e})"),
    }
}

/// The first request's response when it succeeded, else the verdict that nothing is judged.
fn first_success(exchanges: &[Vec<Exchange>]) -> Result<&Response, Verdict> {
    if let Some(v) = unanswered(exchanges) {
        return Err(v);
    }
    match exchanges
        .first()
        .and_then(|b| b.first())
        .map(|x| &x.response)
    {
        Some(Ok(r)) if r.success() => Ok(r),
        Some(Ok(r)) => Err(Verdict::NotJudged(format!(
            "the first request got {}, not a success: give the operation a valid body with --data",
            r.status
        ))),
        Some(Err(e)) => Err(Verdict::NotJudged(format!("the first request: {e}"))),
        None => Err(Verdict::NotJudged("nothing was sent".into())),
    }
}

/// The resources success responses name, compared alike: the `id` of each JSON body (or of the
/// one object a body wraps, `{"data": {"id": ...}}`) when every body has one, else each
/// `Location` when every response has one (a replay may leave out the header and still carry
/// the body); `None` when they cannot be told.
pub fn resources(responses: &[&Response]) -> Option<Vec<String>> {
    let ids: Option<Vec<String>> = responses.iter().map(|r| body_id(r)).collect();
    ids.or_else(|| {
        responses
            .iter()
            .map(|r| r.header("Location").map(str::to_string))
            .collect()
    })
}

/// The resources of two responses, when they are two different ones.
pub fn two_resources(a: &Response, b: &Response) -> Option<(String, String)> {
    match resources(&[a, b])?.as_slice() {
        [x, y] if x != y => Some((x.clone(), y.clone())),
        _ => None,
    }
}

fn body_id(r: &Response) -> Option<String> {
    let body = r.json()?;
    let id = |v: &Value| {
        v.get("id").and_then(|id| match id {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
    };
    id(&body).or_else(|| {
        let objects: Vec<&Value> = body
            .as_object()?
            .values()
            .filter(|v| v.is_object())
            .collect();
        match objects.as_slice() {
            [one] => id(one),
            _ => None,
        }
    })
}

/// Where two bodies differ, fields at `ignore` left out: `None` when they are equal (JSON
/// compared as values, other bodies byte for byte).
pub fn body_difference(a: &Response, b: &Response, ignore: &[String]) -> Option<String> {
    match (a.json(), b.json()) {
        (Some(mut x), Some(mut y)) => {
            for pointer in ignore {
                remove(&mut x, pointer);
                remove(&mut y, pointer);
            }
            difference(&x, &y, String::new())
        }
        _ if a.body == b.body => None,
        _ => Some("the bodies differ".to_string()),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match v.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// The first place two JSON values differ, with both values there.
fn difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = difference(v, w, here) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{here}: {} then absent", short(v))),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{at}/{k}: absent then {}", short(&y[k])))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| difference(v, w, format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!(
            "{}: {} then {}",
            if at.is_empty() { "/" } else { &at },
            short(a),
            short(b)
        )),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(body: &str) -> Response {
        Response {
            status: 201,
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn bodies_are_compared_as_json_without_the_ignored_fields() {
        let a = response(r#"{"id": "1", "at": "10:00", "items": [1, 2]}"#);
        let b = response(r#"{"items":[1,2],"at":"10:01","id":"1"}"#);
        assert_eq!(
            body_difference(&a, &b, &[]).as_deref(),
            Some(r#"/at: "10:00" then "10:01""#)
        );
        assert_eq!(body_difference(&a, &b, &["/at".to_string()]), None);
    }

    #[test]
    fn a_resource_is_its_location_or_its_id() {
        assert_eq!(body_id(&response(r#"{"id": 7}"#)).as_deref(), Some("7"));
        assert_eq!(
            body_id(&response(r#"{"data": {"id": "o1"}, "n": 1}"#)).as_deref(),
            Some("o1")
        );
        assert_eq!(body_id(&response("[]")), None);
        // A replay without the Location header is still the same resource.
        let mut first = response(r#"{"id": "o1"}"#);
        first.headers.push(("Location".into(), "/orders/o1".into()));
        assert_eq!(two_resources(&first, &response(r#"{"id": "o1"}"#)), None);
        let (a, b) = (response("{}"), response("{}"));
        assert_eq!(two_resources(&a, &b), None);
    }
}
