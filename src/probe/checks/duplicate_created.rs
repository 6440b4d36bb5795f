//! `duplicate-created` (`--unkeyed`): an operation without a key sent twice; two different
//! resources are evidence of a double effect.

use super::{Batches, Check, Settings, Verdict, first_success, resources};
use crate::catalogue::RuleId;
use crate::probe::http::Exchange;
use crate::probe::plan::OperationPlan;

pub const CHECK: Check = Check {
    rule: RuleId::DuplicateCreated,
    batches,
    judge,
};

fn batches(plan: &OperationPlan, settings: &Settings<'_>) -> Result<Batches, String> {
    if plan.key.is_some() {
        return Err("it takes a key".into());
    }
    if !settings.unkeyed {
        return Err("it takes no key (--unkeyed sends it twice)".into());
    }
    let request = plan.request(None);
    Ok(vec![vec![request.clone()], vec![request]])
}

fn judge(_: &OperationPlan, _: &Settings<'_>, exchanges: &[Vec<Exchange>]) -> Verdict {
    let first = match first_success(exchanges) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let Some(second) = exchanges
        .get(1)
        .and_then(|b| b.first())
        .and_then(Exchange::ok)
        .filter(|r| r.success())
    else {
        return Verdict::Pass;
    };
    match resources(&[first, second]).as_deref() {
        Some([a, b]) if a != b => Verdict::finding(format!(
            "the same request sent twice created two resources (`{a}` then `{b}`): a retry \
             after a lost response duplicates it"
        )),
        Some(_) => Verdict::Pass,
        None => Verdict::NotJudged(
            "the responses name no resource (no Location header, no `id` in the body)".into(),
        ),
    }
}
