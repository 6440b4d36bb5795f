//! `key-reuse-accepted`: the same key with one field of the body changed must be refused with
//! the profile's mismatch status.

use serde_json::Value;

use super::{Batches, Check, Settings, Verdict, first_success, no_answer};
use crate::catalogue::RuleId;
use crate::probe::generate::uuid_v4;
use crate::probe::http::Exchange;
use crate::probe::plan::{FieldRule, OperationPlan};

pub const CHECK: Check = Check {
    rule: RuleId::KeyReuseAccepted,
    batches,
    judge,
};

/// The body with one field changed to another value its schema allows, and that field's
/// pointer: the next `enum` value, else a number moved within its bounds, else a boolean
/// flipped, else a string's last character changed for another of its kind (a letter for a
/// letter, a digit for a digit: the length kept, so `maxLength` and simple patterns such as
/// `^[A-Z]{3}$` still hold). Never the key field, a `const`, a field of another `format` (a
/// date, an email) or a `format: uuid` one; fields named like ids or accounts only when there is
/// nothing else (another account may not exist).
pub fn altered(plan: &OperationPlan) -> Option<(String, Value)> {
    let Some(Value::Object(map)) = &plan.body else {
        return None;
    };
    let key = plan.key_field();
    let none = FieldRule::default();
    let candidates = |reference: bool| {
        map.iter()
            .filter(move |(k, _)| Some(k.as_str()) != key && identifying(k) == reference)
            .map(|(k, v)| (k, v, plan.fields.get(k).unwrap_or(&none)))
            .filter(|(_, _, r)| !r.fixed && !r.uuid && !r.formatted)
    };
    let pick = |reference: bool| {
        candidates(reference)
            .find_map(|(k, v, r)| next_enum(v, r).map(|v| (k, v)))
            .or_else(|| candidates(reference).find_map(|(k, v, r)| number(v, r).map(|v| (k, v))))
            .or_else(|| {
                candidates(reference).find_map(|(k, v, r)| {
                    (r.enumerated.is_empty())
                        .then(|| v.as_bool().map(|b| (k, Value::Bool(!b))))
                        .flatten()
                })
            })
            .or_else(|| {
                candidates(reference).find_map(|(k, v, r)| {
                    (r.enumerated.is_empty())
                        .then(|| {
                            v.as_str()
                                .and_then(other_string)
                                .map(|s| (k, Value::String(s)))
                        })
                        .flatten()
                })
            })
    };
    let (name, value) = pick(false).or_else(|| pick(true))?;
    let mut body = map.clone();
    body.insert(name.clone(), value);
    Some((format!("/{name}"), Value::Object(body)))
}

/// A field named like a reference to something that must exist: `id`, `*_id`, `*Id`, an
/// account.
fn identifying(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "id"
        || lower.ends_with("_id")
        || lower.ends_with("-id")
        || (name.ends_with("Id") && name.len() > 2)
        || name.ends_with("ID")
        || lower.contains("account")
}

fn next_enum(v: &Value, r: &FieldRule) -> Option<Value> {
    let at = r.enumerated.iter().position(|e| e == v)?;
    let next = &r.enumerated[(at + 1) % r.enumerated.len()];
    (next != v).then(|| next.clone())
}

fn number(v: &Value, r: &FieldRule) -> Option<Value> {
    if !r.enumerated.is_empty() {
        return None;
    }
    let fits = |n: f64| r.minimum.is_none_or(|m| n >= m) && r.maximum.is_none_or(|m| n <= m);
    if let Some(n) = v.as_i64() {
        return [n.checked_add(1), n.checked_sub(1)]
            .into_iter()
            .flatten()
            .find(|n| fits(*n as f64))
            .map(Value::from);
    }
    let n = v.as_f64()?;
    [n + 1.0, n - 1.0, n + 0.5, n - 0.5]
        .into_iter()
        .find(|n| fits(*n))
        .map(Value::from)
}

/// `s` with its last character changed for another of its kind.
fn other_string(s: &str) -> Option<String> {
    let last = s.chars().last()?;
    let other = match last {
        'a'..='y' | 'A'..='Y' | '0'..='8' => char::from(last as u8 + 1),
        'z' => 'a',
        'Z' => 'A',
        '9' => '0',
        _ => return None,
    };
    let mut out: String = s.chars().take(s.chars().count() - 1).collect();
    out.push(other);
    Some(out)
}

fn batches(plan: &OperationPlan, _: &Settings<'_>) -> Result<Batches, String> {
    if plan.key.is_none() {
        return Err("it takes no key".into());
    }
    let (_, body) = altered(plan).ok_or("its body has no field to change")?;
    let key = uuid_v4();
    Ok(vec![
        vec![plan.request(Some(&key))],
        vec![plan.request_with(Some(&key), Some(&body))],
    ])
}

fn judge(plan: &OperationPlan, _: &Settings<'_>, exchanges: &[Vec<Exchange>]) -> Verdict {
    if let Err(v) = first_success(exchanges) {
        return v;
    }
    let field = altered(plan).map(|(at, _)| at).unwrap_or_default();
    let wanted = plan.mismatch_status;
    match exchanges
        .get(1)
        .and_then(|b| b.first())
        .map(|x| &x.response)
    {
        Some(Ok(r)) if r.status == wanted => Verdict::Pass,
        Some(Ok(r)) if r.success() => Verdict::finding(format!(
            "the key reused with a different payload (at {field}) got {}: it was accepted; it \
             must be refused with {wanted}",
            r.status
        )),
        Some(Ok(r)) => Verdict::finding(format!(
            "the key reused with a different payload (at {field}) got {}, not the mismatch \
             status {wanted}",
            r.status
        )),
        Some(Err(e)) => Verdict::finding(format!(
            "the key reused with a different payload (at {field}) got {}; it must be refused \
             with {wanted}",
            no_answer(e)
        )),
        None => Verdict::NotJudged("the second request was not sent".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_at_the_end_of_its_type_is_changed_the_other_way() {
        let any = FieldRule::default();
        assert_eq!(
            number(&Value::from(i64::MAX), &any),
            Some(Value::from(i64::MAX - 1))
        );
        assert_eq!(
            number(&Value::from(i64::MIN), &any),
            Some(Value::from(i64::MIN + 1))
        );
    }
}
