//! `replay-not-idempotent`: the same request with the same key twice, one after the other; the
//! retry must get the first response back.

use super::{
    Batches, Check, Settings, Verdict, body_difference, first_success, no_answer, two_resources,
};
use crate::catalogue::RuleId;
use crate::probe::generate::uuid_v4;
use crate::probe::http::Exchange;
use crate::probe::plan::OperationPlan;

pub const CHECK: Check = Check {
    rule: RuleId::ReplayNotIdempotent,
    batches,
    judge,
};

fn batches(plan: &OperationPlan, _: &Settings<'_>) -> Result<Batches, String> {
    if plan.key.is_none() {
        return Err("it takes no key".into());
    }
    let key = uuid_v4();
    let request = plan.request(Some(&key));
    Ok(vec![vec![request.clone()], vec![request]])
}

fn judge(_: &OperationPlan, settings: &Settings<'_>, exchanges: &[Vec<Exchange>]) -> Verdict {
    let first = match first_success(exchanges) {
        Ok(r) => r,
        Err(v) => return v,
    };
    let retry = match exchanges
        .get(1)
        .and_then(|b| b.first())
        .map(|x| &x.response)
    {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            return Verdict::finding(format!(
                "the retry with the same key got {}; the first got {}",
                no_answer(e),
                first.status
            ));
        }
        None => return Verdict::NotJudged("the retry was not sent".into()),
    };
    if retry.success()
        && let Some((a, b)) = two_resources(first, retry)
    {
        return Verdict::Finding {
            message: format!(
                "the retry with the same key created a second resource (`{a}` then `{b}`): \
                 the key is not honoured"
            ),
            second_resource: true,
        };
    }
    if retry.status != first.status {
        return Verdict::finding(if (400..500).contains(&retry.status) {
            format!(
                "a completed retry with the same key got {} instead of the original {}: a retry \
                 must get the original result, not an error",
                retry.status, first.status
            )
        } else {
            format!(
                "the retry with the same key got {}, not the original {}",
                retry.status, first.status
            )
        });
    }
    match body_difference(first, retry, settings.ignore) {
        None => Verdict::Pass,
        Some(at) => Verdict::finding(format!(
            "the retry with the same key got the same status, {}, but a different body ({at})",
            retry.status
        )),
    }
}
