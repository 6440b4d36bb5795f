//! `concurrent-retry-mishandled`: N identical requests with one key at the same moment; one
//! success and the rest 409 (or the same success) is right, a 5xx or two resources is not.

use super::{Batches, Check, Settings, Verdict, resources, unanswered};
use crate::catalogue::RuleId;
use crate::probe::generate::uuid_v4;
use crate::probe::http::{Exchange, Failure};
use crate::probe::plan::OperationPlan;

pub const CHECK: Check = Check {
    rule: RuleId::ConcurrentRetryMishandled,
    batches,
    judge,
};

fn batches(plan: &OperationPlan, settings: &Settings<'_>) -> Result<Batches, String> {
    if plan.key.is_none() {
        return Err("it takes no key".into());
    }
    let key = uuid_v4();
    let request = plan.request(Some(&key));
    Ok(vec![vec![request; settings.concurrency.max(2)]])
}

fn judge(plan: &OperationPlan, _: &Settings<'_>, exchanges: &[Vec<Exchange>]) -> Verdict {
    if let Some(v) = unanswered(exchanges) {
        return v;
    }
    let all = exchanges.first().map_or(&[][..], Vec::as_slice);
    let n = all.len();
    // (Nothing answered: a server that cannot be talked to, or a response the client cannot
    // read, says nothing of concurrency.)
    if all.iter().all(|x| x.response.is_err())
        && let Some(Err(e)) = all.first().map(|x| &x.response)
    {
        return Verdict::NotJudged(format!(
            "none of the {n} got a response ({})",
            super::no_answer(e)
        ));
    }
    let responses: Vec<_> = all.iter().filter_map(Exchange::ok).collect();
    let successes: Vec<_> = responses.iter().filter(|r| r.success()).copied().collect();
    let mut problems = Vec::new();
    let broken = all
        .iter()
        .filter(|x| matches!(x.response, Err(Failure::Broken(_))))
        .count();
    if broken > 0 {
        problems.push(format!("{broken} got no response (the connection broke)"));
    }
    let hung = all
        .iter()
        .filter(|x| matches!(x.response, Err(Failure::Timeout)))
        .count();
    // A request that hangs while another one succeeded is a retry the server left waiting;
    // with no success, the one doing the work may simply take longer than --timeout.
    if hung > 0 && !successes.is_empty() {
        problems.push(format!("{hung} got no answer within --timeout"));
    }
    if hung > 0 && successes.is_empty() && problems.is_empty() {
        return Verdict::NotJudged(format!(
            "{hung} of the {n} got no answer within --timeout and none succeeded: the work may \
             take longer than --timeout"
        ));
    }
    let mut server_errors: Vec<u16> = responses
        .iter()
        .map(|r| r.status)
        .filter(|s| *s >= 500)
        .collect();
    server_errors.sort_unstable();
    server_errors.dedup();
    let failed = responses.iter().filter(|r| r.status >= 500).count();
    if failed > 0 {
        let statuses: Vec<String> = server_errors.iter().map(u16::to_string).collect();
        problems.push(format!(
            "{failed} got {}: a request whose original is in progress must get 409",
            statuses.join(" or ")
        ));
    }
    let mut resources: Vec<String> = resources(&successes).unwrap_or_default();
    resources.sort();
    resources.dedup();
    if resources.len() > 1 {
        problems.push(format!(
            "{} succeeded with {} different resources ({}): the work was done more than once",
            successes.len(),
            resources.len(),
            resources
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let conflicts: Vec<_> = responses.iter().filter(|r| r.status == 409).collect();
    let without = conflicts
        .iter()
        .filter(|r| r.header("Retry-After").is_none())
        .count();
    if plan.retry_after_on_409 && without > 0 {
        problems.push(format!(
            "{without} got 409 without the Retry-After header the spec declares"
        ));
    }
    if successes.is_empty() && problems.is_empty() {
        // (An invalid body gets 400 five times: that says nothing of concurrency.)
        let mut statuses: Vec<String> = responses.iter().map(|r| r.status.to_string()).collect();
        statuses.dedup();
        return Verdict::NotJudged(format!(
            "none succeeded (they got {}): give the operation a valid body with --data",
            statuses.join(", ")
        ));
    }
    let mut others: Vec<u16> = responses
        .iter()
        .map(|r| r.status)
        .filter(|s| !(200..300).contains(s) && !matches!(s, 409 | 429) && *s < 500)
        .collect();
    others.sort_unstable();
    others.dedup();
    if !others.is_empty() {
        let statuses: Vec<String> = others.iter().map(u16::to_string).collect();
        problems.push(format!(
            "some got {}, neither a success nor 409, for an identical request",
            statuses.join(", ")
        ));
    }
    if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::finding(format!(
            "of {n} concurrent requests with one key, {}",
            problems.join("; ")
        ))
    }
}
