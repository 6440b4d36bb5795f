//! `missing-key-accepted`: a request without its required key must be refused with 400 (or
//! another 4xx the operation declares), not processed. A request with a key goes first: when
//! the server refuses that too (401, 403, 404), a refusal without the key says nothing.

use super::{Batches, Check, Settings, Verdict, first_success};
use crate::catalogue::RuleId;
use crate::probe::generate::uuid_v4;
use crate::probe::http::Exchange;
use crate::probe::plan::OperationPlan;

pub const CHECK: Check = Check {
    rule: RuleId::MissingKeyAccepted,
    batches,
    judge,
};

fn batches(plan: &OperationPlan, _: &Settings<'_>) -> Result<Batches, String> {
    match &plan.key {
        None => Err("it takes no key".into()),
        Some(_) if !plan.key_required => Err("its key is optional".into()),
        Some(_) => Ok(vec![
            vec![plan.request(Some(&uuid_v4()))],
            vec![plan.request(None)],
        ]),
    }
}

fn judge(plan: &OperationPlan, _: &Settings<'_>, exchanges: &[Vec<Exchange>]) -> Verdict {
    if let Err(v) = first_success(exchanges) {
        return v;
    }
    let place = plan.key.as_ref().map(|k| k.describe()).unwrap_or_default();
    match exchanges
        .get(1)
        .and_then(|b| b.first())
        .map(|x| &x.response)
    {
        Some(Ok(r)) if r.status == 400 => Verdict::Pass,
        Some(Ok(r)) if (400..500).contains(&r.status) && plan.declares(r.status) => Verdict::Pass,
        Some(Ok(r)) if r.success() => Verdict::finding(format!(
            "a request without the required {place} got {}: it was processed; it must be \
             refused with 400",
            r.status
        )),
        Some(Ok(r)) => Verdict::finding(format!(
            "a request without the required {place} got {}, not 400",
            r.status
        )),
        Some(Err(e)) => Verdict::finding(format!(
            "a request without the required {place} got no response ({e})"
        )),
        None => Verdict::NotJudged("nothing was sent".into()),
    }
}
