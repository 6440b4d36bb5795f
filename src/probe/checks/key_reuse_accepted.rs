//! `key-reuse-accepted`: the same key with one field of the body changed must be refused with
//! the profile's mismatch status.

use serde_json::Value;

use super::{Batches, Check, Settings, Verdict, first_success, no_answer};
use crate::catalogue::RuleId;
use crate::probe::generate::uuid_v4;
use crate::probe::http::Exchange;
use crate::probe::plan::OperationPlan;

pub const CHECK: Check = Check {
    rule: RuleId::KeyReuseAccepted,
    batches,
    judge,
};

/// The body with one field changed, and that field's pointer: a number incremented, else a
/// boolean flipped, else a string given a suffix; never the key field.
pub fn altered(plan: &OperationPlan) -> Option<(String, Value)> {
    let Some(Value::Object(map)) = &plan.body else {
        return None;
    };
    let key = plan.key_field();
    let fields = || map.iter().filter(|(k, _)| Some(k.as_str()) != key);
    let (name, value) = fields()
        .find_map(|(k, v)| {
            v.as_i64()
                .map(|n| Value::from(n + 1))
                .or_else(|| v.as_f64().map(|n| Value::from(n + 1.0)))
                .map(|v| (k, v))
        })
        .or_else(|| fields().find_map(|(k, v)| v.as_bool().map(|b| (k, Value::Bool(!b)))))
        .or_else(|| {
            fields().find_map(|(k, v)| v.as_str().map(|s| (k, Value::String(format!("{s}-2")))))
        })?;
    let mut body = map.clone();
    body.insert(name.clone(), value);
    Some((format!("/{name}"), Value::Object(body)))
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
