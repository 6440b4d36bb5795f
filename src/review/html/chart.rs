//! The summary chart: for each question, the operations by verdict as one stacked bar, and
//! for a change the bar before it above the bar after it.

use super::markup::escape;
use super::rows::{VERDICTS, class};
use crate::review::{OperationReview, QUESTIONS, Verdict};

/// How many operations got each verdict, worst first, for question `q`.
fn counts(ops: &[OperationReview], q: usize) -> [usize; 4] {
    let mut n = [0; 4];
    for op in ops {
        let v = op.answers[q].verdict;
        n[VERDICTS
            .iter()
            .position(|x| *x == v)
            .expect("every verdict listed")] += 1;
    }
    n
}

/// One bar; its segments filter the table when the script runs (`live`), unless it is the
/// base's.
fn bar(n: &[usize; 4], q: usize, before: bool) -> String {
    let mut s = format!(
        "<span class=\"bar{}\">",
        if before { " before" } else { "" }
    );
    for (v, count) in VERDICTS.iter().zip(n) {
        if *count == 0 {
            continue;
        }
        let pick = if before {
            String::new()
        } else {
            format!(" data-q=\"{q}\" data-v=\"{}\"", class(*v))
        };
        s.push_str(&format!(
            "<span class=\"seg {c}\" style=\"flex:{count} 1 0\" title=\"{count} {w}\"{pick}></span>",
            c = class(*v),
            w = label(*v),
        ));
    }
    s.push_str("</span>");
    s
}

fn label(v: Verdict) -> &'static str {
    match v {
        Verdict::Risk => "risk",
        Verdict::Gap => "gap",
        Verdict::Good => "good",
        Verdict::NotApplicable => "n/a",
    }
}

/// `1 risk 2 gap 7 good`, the numbers a bar draws, readable in print and without colour.
fn numbers(n: &[usize; 4], when: Option<&str>) -> String {
    let mut s = String::from("<span class=\"counts\">");
    if let Some(when) = when {
        s.push_str(&format!("<span class=\"when\">{when}</span>"));
    }
    if n.iter().all(|c| *c == 0) {
        s.push_str("no operations");
    }
    for (v, count) in VERDICTS.iter().zip(n) {
        if *count > 0 {
            s.push_str(&format!(
                "<span><b class=\"{}\">{count}</b> {}</span>",
                class(*v),
                label(*v)
            ));
        }
    }
    s.push_str("</span>");
    s
}

/// The chart of one review.
pub fn chart(ops: &[OperationReview]) -> String {
    let mut s = String::from(
        "<figure class=\"chart\"><figcaption>Operations by verdict, per question</figcaption>\
         <div class=\"bars\">",
    );
    for (q, text) in QUESTIONS.iter().enumerate() {
        let n = counts(ops, q);
        s.push_str(&format!(
            "<span class=\"q\" data-q=\"{q}\">{}</span>{}{}",
            escape(text),
            bar(&n, q, false),
            numbers(&n, None)
        ));
    }
    s.push_str("</div></figure>\n");
    s
}

/// The chart of a change: each question's bar at the base, then after the change; a side
/// the document does not exist on is left out.
pub fn change_chart(
    before: Option<&[OperationReview]>,
    after: Option<&[OperationReview]>,
) -> String {
    let mut s = String::from(
        "<figure class=\"chart\"><figcaption>Operations by verdict, per question: before, then \
         after the change</figcaption><div class=\"bars\">",
    );
    let sides = usize::from(before.is_some()) + usize::from(after.is_some());
    for (q, text) in QUESTIONS.iter().enumerate() {
        s.push_str(&format!(
            "<span class=\"q\" data-q=\"{q}\" style=\"grid-row:span {sides}\">{}</span>",
            escape(text)
        ));
        if let Some(ops) = before {
            let n = counts(ops, q);
            s.push_str(&bar(&n, q, true));
            s.push_str(&numbers(&n, Some("before")));
        }
        if let Some(ops) = after {
            let n = counts(ops, q);
            s.push_str(&bar(&n, q, false));
            s.push_str(&numbers(&n, Some("after")));
        }
    }
    s.push_str("</div></figure>\n");
    s
}
