//! What an operation does, judged from its words: whether a POST only reads (`/payments/search`,
//! `getMemberGroups`, "Render a Markdown document"), passes the request through to another
//! target (`…/proxy/{path}`, Kubernetes `exec`), or changes state.
//!
//! Names are split into words first (camelCase, snake_case, kebab-case, dots, path segments),
//! and words are compared whole, allowing only inflections (`calculate` matches `calculation`,
//! `query` matches `queries`): a verb stem inside a noun (`validatingwebhookconfigurations`)
//! matches nothing. Position matters as it does in English names:
//! - an operationId is verb-first: its head verb decides (`getMemberGroups` reads,
//!   `createValidationRequest` creates), after a leading HTTP method (`PostCustomersSearch`) or
//!   a batch qualifier (`BulkRetrieveBookings`); a noun-first one (`runReportQuery`,
//!   `userLogin`) reads by its last word, unless that word names a path parameter
//!   (`PostShippingRatesShippingRateToken` updates the rate `{shipping_rate_token}`);
//! - a path segment is either verb-first (`batch-retrieve`, `validate_address`) or a noun
//!   phrase whose last word is its head (`/tax/calculations`, `/oauth2/token`); a word in the
//!   middle (`personal-access-token-requests`) is neither;
//! - a summary opens with its verb ("Get a list of …", "Invoke function getSchedule").
//!
//! A head verb that writes (`create`, `update`, `send`, …), in the operationId or the summary,
//! or a declared `201 Created` response, means the POST is not read-only whatever else its
//! names say. A few domain phrases read although they are worded as writes ("confirm funds",
//! "test a webhook").

use crate::config::Settings;
use crate::heuristics::words;
use crate::model::{Method, NameWords, Operation};
use crate::source::Node;
use crate::vocabulary::{
    CONNECT_SEGMENTS, CREATE_WORDS, DELETE_VERBS, DOMAIN_READS, EVALUATING_NOUNS, EVALUATING_VERBS,
    EXISTING_THING_NOUNS, INSTANCE_TRANSITION_VERBS, METHODS, PREPOSITIONS, PROXY_SEGMENTS,
    QUALIFIERS, REDELIVERY_VERBS, SEND_VERBS, SET_NOUNS, STARTING_VERBS, TEST_VERBS,
    TRANSITION_VERBS, UPDATE_VERBS, WRITE_VERBS,
};

/// Why an operation's duplicates do not matter, in words a message or a review can quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exemption {
    /// It only reads or evaluates; the reason: `search`, `summary "Get a list of"`.
    Reads(String),
    /// It hands the request to another target (a proxy, a container's exec), whose semantics
    /// are the target's: `proxy`.
    PassesThrough(String),
    /// It only deletes or removes (`BulkDeleteMerchantCustomAttributes`, "Remove a member"): a
    /// repeat leaves the same state, as a DELETE's does. The verb.
    Deletes(String),
    /// It only runs in a test mode (`/v1/test_helpers/…`, `/sandbox/…`, `simulateTransaction`):
    /// its duplicates are test data. The word that says so.
    TestMode(String),
    /// It delivers again an event that was delivered before (a webhook redelivery, Checkout's
    /// `reflow`): the event keeps its id, on which receivers dedupe. The verb.
    Redelivers(String),
}

impl Exemption {
    /// The reason, for quoting: `search`, `summary "Get a list of"`, `proxy`.
    pub fn reason(&self) -> &str {
        match self {
            Exemption::Reads(r)
            | Exemption::PassesThrough(r)
            | Exemption::Deletes(r)
            | Exemption::TestMode(r)
            | Exemption::Redelivers(r) => r,
        }
    }
}

/// Descriptions that say the result is not kept: "The generated release notes are not saved
/// anywhere".
static NOT_STORED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(
            (is|are|will\ be|get|gets)\ not\ (be\ )?(saved|stored|persisted)
          | without\ (saving|storing|persisting)
          | no\ changes\ are\ (made|saved)
        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// Wording that says what a POST makes does not last, so a duplicate is left to expire:
/// "Creates a short-lived API key", "An Upload … expires after an hour after you create it",
/// "Creates a single-use token" (Stripe's tokens: one left unused is never charged; its
/// "single-use login link" for an Express account), Square's
/// "one-time-use codes [that] expire 60 minutes after being issued".
static SHORT_LIVED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(
            short[-\ ]lived | ephemeral | single[-\ ]use\ tokens?
            # Okta's forgot-password flow: 'Generates a one-time token (OTT)'.
          | one[-\ ]time\ tokens?
          | single[-\ ]use\ (?:login|sign[-\ ]in|magic|auth|authentication)\ links?
            # Stripe's AccountLink: a single-use Stripe URL to redirect a user to.
          | single[-\ ]use\ (?:[a-z]+\ )?url
          | one[-\ ]time[-\ ]use\ codes?(?-u:\b)(?u:[^.]){0,80}(?-u:\b)expire
          | expires?\ (after|in|within)\ (an?|one|a\ few|[0-9]+)\ (seconds?|minutes?|hours?)
          | expires?\ (an?|one|a\ few|[0-9]+)\ (seconds?|minutes?|hours?)\ after
        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// What a POST that changes state does, as far as a retry goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// It creates something, or its effect is unknown: a retry can do it twice.
    Creates,
    /// It updates or sets the resource it is addressed to (`POST /customers/{id}`, "Updates the
    /// customer", Slack's `admin.teams.settings.setIcon`): a retry repeats the update and can
    /// undo a change made in between.
    Updates,
    /// It moves a resource to a target state (`/cancel`, `approve`): a retry repeats the
    /// transition. The verb, for quoting.
    Transitions(String),
    /// It adds members to a set (labels, members, tags): adding one twice leaves one. The noun.
    JoinsSet(String),
    /// It sends a message (an email, a text, a notification): a retry sends it again. The verb.
    Sends(String),
    /// It creates something that expires on its own (a short-lived key, an upload that expires
    /// after an hour): a duplicate is left to expire. The words that say so.
    ShortLived(String),
    /// It runs a model on what it is sent and keeps nothing a client could fetch afterwards
    /// (a transcription, an image, Box's `/ai/extract`): a retry generates
    /// again, billed again and perhaps different, but leaves no duplicate. The body field that
    /// names the model.
    Generates(String),
    /// It packages data that exists into an export (Asana's organization export, Lob's export
    /// of an upload): a retry exports it again, a spare copy and the work repeated, but none of
    /// the data is duplicated.
    Exports,
}

impl NameWords {
    /// Split once per operation and kept on it: several classifiers read them of every POST.
    fn of<'o>(op: &'o Operation<'_>) -> &'o Self {
        op.names.get_or_init(|| {
            let seg = words(odata_action(last_literal_segment(op.path)));
            let id = op
                .operation_id
                .map(|id| words(action_part(id)))
                .unwrap_or_default();
            let lead = lead_text(op)
                .map(|(_, t)| event_to_verb(job_to_verb(words(&t), &seg, &id), &seg))
                .unwrap_or_default();
            NameWords { seg, id, lead }
        })
    }

    /// The head verbs: the operationId's (after a leading method or qualifier), the summary's
    /// first word and its second verb after "and" ("Uploads and replaces the favicon"), and the
    /// last segment's when it may name the action.
    fn heads(&self, op: &Operation<'_>, segment_counts: bool) -> Vec<String> {
        let second_verb = (self.lead.get(1).map(String::as_str) == Some("and"))
            .then(|| self.lead.get(2).map(|w| base_verb(w)))
            .flatten();
        [
            head_verb(&self.id, Some(op.method.key())).map(str::to_string),
            self.lead.first().map(|w| base_verb(w)),
            second_verb,
            segment_counts
                .then(|| head_verb(&self.seg, None).map(str::to_string))
                .flatten(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// A summary that records an event the call is named for ("Registers participants removed
/// from a Call" at Slack's `/calls.participants.remove`, "Registers new participants added to a
/// Call" at `calls.participants.add`) is read as that event's verb ("remove participants from a
/// call"):
/// what a retry repeats is the removal or the add the segment names, not a registration of
/// something new. Other words are returned as they are.
fn event_to_verb(lead: Vec<String>, seg: &[String]) -> Vec<String> {
    if !lead.first().is_some_and(|w| {
        matches!(
            base_verb(w).as_str(),
            "register" | "record" | "log" | "report" | "notify" | "inform"
        )
    }) {
        return lead;
    }
    let Some(verb) = seg.first() else {
        return lead;
    };
    let verb = base_verb(verb);
    // (Only of members of a set, which a repeat leaves as they are: "Records items removed
    // from a warehouse's stock" records a count, and a retry removes it twice.)
    let at = lead
        .iter()
        .take(6)
        .position(|w| w.ends_with("ed") && inflects(w, &verb))
        .filter(|&at| {
            lead[1..at]
                .iter()
                .any(|w| SET_NOUNS.contains(&base_verb(w).as_str()))
        });
    match at {
        // ("Registers new participants added to a Call": "add participants to a call".)
        Some(at) => std::iter::once(verb)
            .chain(lead[1..at].iter().filter(|w| *w != "new").cloned())
            .chain(lead[at + 1..].iter().cloned())
            .collect(),
        None => lead,
    }
}

/// A summary that creates a job or task only to do something else ("Create jobs to terminate
/// users session", Box's) is read from that verb on ("terminate users session"): the job is
/// the means, the verb is what a retry repeats. Only when the last path segment or the
/// operationId names that verb too (Box's `/users/terminate_sessions`): "Create a task to
/// approve the invoice" at `/tasks` makes a task, a thing of its own. Other words are returned
/// as they are.
fn job_to_verb(lead: Vec<String>, seg: &[String], id: &[String]) -> Vec<String> {
    let mut at = 0;
    if !lead.first().is_some_and(|w| {
        matches!(
            base_verb(w).as_str(),
            "create" | "start" | "schedule" | "queue" | "enqueue" | "submit"
        )
    }) {
        return lead;
    }
    at += 1;
    if lead
        .get(at)
        .is_some_and(|w| matches!(w.as_str(), "a" | "an" | "the"))
    {
        at += 1;
    }
    while lead.get(at).is_some_and(|w| {
        QUALIFIERS.contains(&w.as_str())
            || matches!(w.as_str(), "asynchronous" | "background" | "one" | "new")
    }) {
        at += 1;
    }
    let job = lead
        .get(at)
        .is_some_and(|w| matches!(w.as_str(), "job" | "jobs" | "task" | "tasks"));
    let to = lead.get(at + 1).is_some_and(|w| w == "to");
    let named = |verb: &str| {
        let verb = base_verb(verb);
        seg.iter().chain(id).any(|w| base_verb(w) == verb)
    };
    match lead.get(at + 2) {
        Some(verb) if job && to && named(verb) => lead[at + 2..].to_vec(),
        _ => lead,
    }
}

/// The head verbs of an operation's names: its operationId's, its summary's and its last
/// segment's (see [`NameWords::heads`]).
pub fn head_verbs(op: &Operation<'_>) -> Vec<String> {
    NameWords::of(op).heads(op, true)
}

/// The state a `mark` segment names (`uncollectible` of `mark_uncollectible`, `read` of
/// `mark-as-read`), past `as` and `all`.
fn marked_state(seg_words: &[String]) -> Option<String> {
    match seg_words {
        [mark, rest @ ..] if mark == "mark" => rest
            .iter()
            .find(|w| !matches!(w.as_str(), "as" | "all"))
            .cloned(),
        _ => None,
    }
}

/// The nouns a create verb heads in the operationId and the summary, singular: the head of
/// the noun phrase after `create` (or `insert`: Formance's "Insert a schema") and any article, up to a preposition (`file` of "Create
/// File", `ledger` of `v2CreateLedger`, `message` of "Create a thread message", `comment` of
/// `createCommentForFile`, `card` of "Create card on board").
pub fn created_nouns(op: &Operation<'_>) -> Vec<String> {
    let names = NameWords::of(op);
    [&names.id, &names.lead]
        .into_iter()
        .filter_map(|w| {
            let at = w
                .iter()
                .position(|x| matches!(x.as_str(), "create" | "insert"))?;
            let phrase: Vec<&String> = w[at + 1..]
                .iter()
                .skip_while(|x| matches!(x.as_str(), "a" | "an" | "the" | "new"))
                .take_while(|x| !PREPOSITIONS.contains(&x.as_str()))
                .collect();
            phrase
                .last()
                .map(|n| n.strip_suffix('s').unwrap_or(n).to_string())
        })
        .collect()
}

/// What a state-changing POST does (see [`Effect`]), from its path, names and summary.
pub fn effect(op: &Operation<'_>) -> Effect {
    match effect_by_names(op) {
        // A log takes lines, it is not set: Netlify's `updateSiteBuildLog` at
        // `/builds/{build_id}/log`, sent a `message`, appends one, and a retry appends it again.
        Effect::Updates
            if op.request_body.is_some()
                && !op.path.trim_end_matches('/').ends_with('}')
                && words(last_literal_segment(op.path))
                    .last()
                    .is_some_and(|w| matches!(w.as_str(), "log" | "logs" | "journal"))
                && !NameWords::of(op)
                    .lead
                    .iter()
                    .any(|w| matches!(w.as_str(), "settings" | "setting" | "level" | "config")) =>
        {
            creates(op)
        }
        effect => effect,
    }
}

fn effect_by_names(op: &Operation<'_>) -> Effect {
    let path = op.path.split('?').next().unwrap_or(op.path);
    let ends_with_parameter = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|s| s.starts_with('{'));
    let names = NameWords::of(op);
    let (seg_words, id_words, lead_words) = (&names.seg, &names.id, &names.lead);
    // A transition verb as the last segment under the resource it acts on (`/invoices/{invoice}/
    // pay`, `/orders/{id}/cancel`) says what the call does, whatever a description's first
    // sentence tells of the product ("Stripe automatically creates and then attempts to collect
    // payment on invoices").
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // Whether a word of the collection the path's item parameter is of (the segment before it)
    // is one of `nouns`: `gift_cards` of `/gift_cards/{code}/redeem`.
    let collection_is = |nouns: &[&str]| {
        segments.iter().rev().nth(2).is_some_and(|c| {
            words(c)
                .iter()
                .any(|w| nouns.contains(&base_verb(w).as_str()))
        })
    };
    // The first word of a segment too: Unit's `/cards/{cardId}/report-lost`, GitHub's
    // `/repos/{owner}/{repo}/merge-upstream`.
    // Not a noun the operationId creates: Xero's `createEmployeeLeave` at
    // `/Employees/{EmployeeID}/Leave` makes a leave, it leaves nothing.
    // (Nor the first word of the noun phrase it creates: `createEmployeeLeaveType` at
    // `/Employees/{EmployeeID}/LeaveTypes`.)
    let created_noun = |verb: &String| {
        let singular = |w: &String| w.strip_suffix('s').unwrap_or(w).to_string();
        id_words
            .first()
            .is_some_and(|w| matches!(base_verb(w).as_str(), "create" | "add"))
            && seg_words.first() == Some(verb)
            && id_words.len() > seg_words.len()
            && id_words[id_words.len() - seg_words.len()..]
                .iter()
                .zip(seg_words)
                .all(|(a, b)| singular(a) == singular(b))
    };
    // A verb under the resource's `lifecycle` (Okta's `/csrs/{csrId}/lifecycle/publish`,
    // `/users/{id}/lifecycle/reset_factors`) moves it along its lifecycle, whatever the verb.
    if let [.., parent, lifecycle, _] = segments.as_slice()
        && parent.starts_with('{')
        && lifecycle.eq_ignore_ascii_case("lifecycle")
        && let Some(verb) = seg_words.first()
        // (A `refresh` of a session updates it, as anywhere; a noun, `…/lifecycle/rules`, is
        // what a create makes.)
        && (TRANSITION_VERBS.contains(&base_verb(verb).as_str())
            || INSTANCE_TRANSITION_VERBS.contains(&base_verb(verb).as_str())
            || verb == "publish")
        && !lead_words
            .iter()
            .chain(id_words)
            .any(|w| CREATE_WORDS.contains(&w.as_str()))
    {
        return Effect::Transitions(base_verb(verb));
    }
    // (Not one whose summary or description opens by saying it makes a new thing of the
    // collection's kind, of the action's name ("Creates a new commit"), or a file or copy: Moov's `reverseFile` at `/files/{fileID}/reverse`,
    // "Creates a new file that is a REVERSAL of the given fileID": a retry makes a second
    // reversal file. "Create a new cancellation request" of a subscription's `cancel` still
    // cancels it.)
    let opens_with_a_new_thing = || {
        let collection = segments
            .len()
            .checked_sub(3)
            .and_then(|at| segments.get(at))
            .and_then(|c| words(c).last().map(|w| base_verb(w)));
        op.texts().any(|d| {
            // (The first sentence's opening: not a noun of the next one.)
            let first = crate::heuristics::opening(d, 80);
            let w = words(first.split(['.', ';', ':']).next().unwrap_or_default());
            let Some(new) = w.iter().skip(1).take(2).position(|x| x == "new") else {
                return false;
            };
            // (The head noun of the phrase: "a new subscription cancellation" is a
            // cancellation.)
            w.first().is_some_and(|x| base_verb(x) == "create")
                && w[new + 2..]
                    .iter()
                    .take(3)
                    // (Up to a preposition, article, pronoun or participle: "a new
                    // file containing the reversal", "a new invoice reversing this".)
                    .take_while(|x| {
                        !PREPOSITIONS.contains(&x.as_str())
                            && !matches!(
                                x.as_str(),
                                "that"
                                    | "which"
                                    | "and"
                                    | "from"
                                    | "the"
                                    | "a"
                                    | "an"
                                    | "this"
                                    | "its"
                            )
                            && (x.len() <= 5 || !x.ends_with("ing"))
                    })
                    .last()
                    .is_some_and(|x| {
                        let x = base_verb(x);
                        matches!(x.as_str(), "file" | "copy" | "clone" | "duplicate")
                                || collection.as_deref() == Some(x.as_str())
                                // ("Creates a new commit" at `…/commit`.)
                                || seg_words.len() == 1 && seg_words[0] == x
                    })
        })
    };
    // Committing what the path names (Box's upload session,
    // `/files/upload_sessions/{upload_session_id}/commit`, closed into one file; Netlify's
    // `/agent_runners/{agent_runner_id}/commit` of a runner's work to a branch) happens once:
    // a repeat finds it committed. (Not one whose names say it creates, nor a commit to a
    // repository, project or branch, which makes one more commit each time.)
    if let [.., parent, _] = segments.as_slice()
        && parent.starts_with('{')
        && matches!(seg_words.as_slice(), [c] if c == "commit")
        && !words(parent).iter().any(|w| {
            matches!(
                w.as_str(),
                "repo" | "repository" | "project" | "branch" | "workspace" | "ref"
            )
        })
        && !opens_with_a_new_thing()
        && !lead_words
            .iter()
            .chain(id_words)
            .any(|w| CREATE_WORDS.contains(&w.as_str()))
    {
        return Effect::Transitions("commit".to_string());
    }
    if let [.., parent, _] = segments.as_slice()
        && parent.starts_with('{')
        && let Some(verb) = seg_words.first()
        && !created_noun(verb)
        && !opens_with_a_new_thing()
        && (TRANSITION_VERBS.contains(&verb.as_str())
            // `pull`, `push` and `tag` head nouns too (`/pull_request`): alone only; `report`
            // only with what it reports (`report-lost`), not an abuse `/report`; `process` alone
            // or with what it processes (a reader's `process_payment_intent`).
            || (INSTANCE_TRANSITION_VERBS.contains(&verb.as_str())
                && (verb == "process" || (seg_words.len() == 1) != (verb == "report"))
                // A subscription with nothing sent is to what the path names (Okta's
                // `…/{notificationType}/subscribe`); one sent a customer and answered 201
                // makes a (billed) subscription.
                && (verb != "subscribe"
                    || (op.request_body.is_none() && op.response("201").is_none()))
                // The gift card, voucher or coupon the path names, redeemed once; a loyalty
                // account's `redeem` spends points.
                && (verb != "redeem"
                    || collection_is(&["gift", "card", "voucher", "coupon", "code"]))
                // A policy, template, preset or profile the path names, applied to what it
                // governs; a job applied to, or a credit note applied to an invoice, makes or
                // moves something.
                && (verb != "apply"
                    || collection_is(&["policy", "template", "preset", "profile"]))))
    {
        // (`mark_uncollectible`: the state it is marked with says more.)
        return Effect::Transitions(marked_state(seg_words).unwrap_or_else(|| verb.clone()));
    }
    // The same named by its noun, in the plural of a collection of them: Adyen's
    // `/payments/{paymentPspReference}/reversals` and `/cancels` (a payment is reversed once).
    // Not one its text says it creates: Stripe's "When you create a new reversal" may reverse a
    // part, "as many times as you wish".
    if let [.., parent, _] = segments.as_slice()
        && parent.starts_with('{')
        && !lead_words
            .iter()
            .take(6)
            .any(|w| CREATE_WORDS.contains(&w.as_str()))
        && !lead_words.first().is_some_and(|w| {
            let v = base_verb(w);
            SEND_VERBS.contains(&v.as_str())
                || STARTING_VERBS.contains(&v.as_str())
                || matches!(v.as_str(), "add" | "record" | "log")
        })
        && let [noun] = seg_words.as_slice()
        && let Some(singular) = noun.strip_suffix('s')
        && let Some(verb) = crate::vocabulary::TRANSITION_NOUNS
            .iter()
            .find(|(n, _)| *n == singular)
            .map(|(_, v)| *v)
        && TRANSITION_VERBS.contains(&verb)
    {
        return Effect::Transitions(verb.to_string());
    }
    // The verb heading the summary names the collection the path's item is in, as what is done
    // to it (Unit's "Return Received ACH Transaction" at `/returns/{transactionId}`): the item
    // is the transaction returned, once.
    // (Not one that says it creates, in its words or with a 201: "Creates a return … An order
    // may have several partial returns". Not `report` or `tag`, which file or attach another.)
    if let [.., collection, last] = segments.as_slice()
        && last.starts_with('{')
        && let Some(verb) = lead_words.first().map(|w| base_verb(w))
        && (TRANSITION_VERBS.contains(&verb.as_str()) || verb == "return")
        && words(collection)
            .last()
            .is_some_and(|c| base_verb(c) == verb || c.strip_suffix('s') == Some(verb.as_str()))
        && !lead_words
            .iter()
            .chain(id_words)
            .any(|w| CREATE_WORDS.contains(&w.as_str()))
        && op.response("201").is_none()
    {
        return Effect::Transitions(verb);
    }
    // "Updates or creates", `createOrUpdate`, an upsert: it may create, so a retry may too.
    // The summary says what the call does: `create-project-user` that "Adds a user to the
    // project" joins a set.
    let summary_decides = lead_words.first().is_some_and(|w| {
        let verb = base_verb(w);
        [TRANSITION_VERBS, UPDATE_VERBS, SEND_VERBS, &["add"]]
            .iter()
            .any(|list| list.contains(&verb.as_str()))
    });
    // ("Move or insert sections": after a move, `insert` is where it goes.)
    let moves = lead_words
        .first()
        .is_some_and(|w| matches!(base_verb(w).as_str(), "move" | "reorder"));
    // ("Reverses a ReceivedDebit and creates a DebitReversal object": the object records the
    // transition its summary opens with.)
    let records_transition = lead_words
        .first()
        .is_some_and(|w| TRANSITION_VERBS.contains(&base_verb(w).as_str()));
    let create_after_and =
        |i: usize| records_transition && lead_words[..i].iter().any(|w| w == "and");
    let may_create = lead_words.iter().take(6).enumerate().any(|(i, w)| {
        CREATE_WORDS.contains(&w.as_str())
            && !(moves && w.starts_with("insert"))
            && !create_after_and(i)
    }) || (!summary_decides
        && id_words.iter().any(|w| CREATE_WORDS.contains(&w.as_str())));
    // "Create or replace the organization's hard spend limit" at `/organization/spend_limit`,
    // beside the GET and DELETE of it: the one thing of its kind, set again on a retry. So is
    // one a verb makes or updates ("Provisions or updates a TLS certificate for the site" at
    // Netlify's `/sites/{site_id}/ssl`, beside its GET).
    let replaces_one = !lead_words.is_empty()
        && lead_words
            .windows(2)
            .take(4)
            .any(|p| p[0] == "or" && matches!(base_verb(&p[1]).as_str(), "replace" | "update"))
        && !ends_with_parameter
        && words(last_literal_segment(path))
            .last()
            .is_some_and(|w| !w.ends_with('s'))
        && op.item_parameter.is_none()
        && (op
            .neighbours
            .iter()
            .any(|m| matches!(m, Method::Delete | Method::Put))
            // (Beside a GET only when it is the one thing under the resource the path names:
            // Netlify's `/sites/{site_id}/ssl`, not `/people`.)
            || (op.neighbours.contains(&Method::Get) && one_of_its_kind(op)));
    if replaces_one {
        return Effect::Updates;
    }
    // "Creates an employee payment method" at Xero's `/Employees/{EmployeeID}/PaymentMethods`,
    // whose GET answers the very object the POST does, with no item path under it: the one
    // thing of its kind under the resource its path names, which a retry makes no second of.
    if op.method == Method::Post && op.read_as_one && one_of_its_kind(op) {
        return Effect::Updates;
    }
    // An upsert finds its target by a key before it writes, in the path (Square's
    // `/v2/orders/{order_id}/custom-attributes/{custom_attribute_key}`) or in each item of the
    // body (Square's `/v2/bookings/custom-attributes/bulk-upsert`, by booking id and key): a PUT
    // by another name, it sets the same values again on a retry.
    let upsert_only = id_words
        .iter()
        .chain(lead_words.iter().take(6))
        .filter(|w| CREATE_WORDS.contains(&w.as_str()))
        .all(|w| w.starts_with("upsert"));
    // "Set up a recurring payment" makes one.
    if lead_words.first().is_some_and(|w| w == "set")
        && lead_words.get(1).is_some_and(|w| w == "up")
    {
        return creates(op);
    }
    // (Its key: the path's last parameter, or each item of a bulk or batch upsert; a plain
    // "upsert a contact" with an optional id creates one when sent none.)
    let keyed_items = seg_words
        .iter()
        .chain(id_words.iter())
        .any(|w| matches!(w.as_str(), "bulk" | "batch"));
    if may_create && upsert_only && (ends_with_parameter || keyed_items) {
        return Effect::Updates;
    }
    if may_create {
        return creates_or_replaces(op);
    }
    // The summary is written for people and says what the call does; an operationId's first
    // word may be the product's name (Vonage's `verifyRequest`, "Request a Verification"). A
    // summary headed by a creating verb decides, unless it is `submit` of one resource the path
    // names (Gitea's "Submit a pending review" at `/reviews/{id}`, "Submit dispute evidence"
    // at `/disputes/{dispute_id}/evidence`): that is sent once, and a repeat is refused.
    let submits_one = || {
        lead_words.first().is_some_and(|w| base_verb(w) == "submit")
            && match segments.as_slice() {
                // An item of a collection (`/reviews/{id}`), not `/submit/{portalId}/{formGuid}`.
                [.., collection, last] if last.starts_with('{') => {
                    !collection.starts_with('{')
                        && words(collection).last().is_some_and(|w| w.ends_with('s'))
                        && !matches!(
                            crate::heuristics::squash(last).as_str(),
                            "format" | "version" | "apiversion" | "locale"
                        )
                }
                [.., parent, last] => parent.starts_with('{') && !last.ends_with('s'),
                _ => false,
            }
    };
    if submits_one() {
        return Effect::Transitions("submit".to_string());
    }
    if lead_words
        .first()
        .is_some_and(|w| STARTING_VERBS.contains(&base_verb(w).as_str()))
    {
        return creates(op);
    }
    // A path ending in a parameter names the resource, not the action.
    let heads = names.heads(op, !ends_with_parameter);
    let is = |list: &[&str]| heads.iter().find(|h| list.contains(&h.as_str())).cloned();
    // A transition needs a resource to move: Vonage's `/psd2/{format}` (`verifyRequestWithPSD2`)
    // takes only a response format, and makes a new verification.
    let names_a_resource = || {
        let mut parameters = path_parameters(path).peekable();
        parameters.peek().is_none()
            || parameters.any(|p| {
                !matches!(
                    crate::heuristics::squash(p).as_str(),
                    "format" | "version" | "apiversion" | "locale"
                )
            })
    };
    // Starting, merging, connecting or upgrading something at a collection makes a new one
    // ("Start a conversation" at `/conversations`): only on a resource the path names is it a
    // transition of that resource.
    // ("Start a task" at `/repos/{owner}/{repo}/tasks` starts a new one.)
    // On a resource the path names: the path ends in its parameter, or the verb is the segment
    // right under it (`/pipelines/{id}/start`); not `/conversations/start`.
    let on_one = |v: &String| {
        ends_with_parameter
            || matches!(segments.as_slice(), [.., parent, last]
                if parent.starts_with('{') && words(last).first().is_some_and(|w| base_verb(w) == *v))
    };
    let needs_instance =
        |v: &String| crate::vocabulary::NEW_UNLESS_NAMED_VERBS.contains(&v.as_str()) && !on_one(v);
    if let Some(verb) = is(TRANSITION_VERBS)
        .filter(|v| names_a_resource() && !needs_instance(v) && !opens_with_a_new_thing())
    {
        if verb != "mark" {
            return Effect::Transitions(verb);
        }
        // A mark is set by the call's own name or summary (`mark_uncollectible`, "Marks a
        // reminder as complete"), not by an operationId word alone (`markConversationStart`,
        // "Start a conversation"); a summary headed by an update ("Sets the read cursor" of
        // Slack's `conversations.mark`) updates. The state marked says more, when named.
        let lead_verb = lead_words.first().map(|w| base_verb(w));
        if lead_verb
            .as_ref()
            .is_some_and(|v| UPDATE_VERBS.contains(&v.as_str()))
        {
            return Effect::Updates;
        }
        let state = marked_state(seg_words).or_else(|| {
            lead_words
                .windows(2)
                .find(|p| p[0] == "as")
                .map(|p| p[1].clone())
        });
        // (An operationId's `mark` counts where nothing else names the call: `markMessageRead`
        // with no summary.)
        if seg_words.first().is_some_and(|w| w == "mark")
            || lead_verb.as_deref() == Some("mark")
            || (lead_words.is_empty() && id_words.first().is_some_and(|w| w == "mark"))
        {
            return Effect::Transitions(state.unwrap_or(verb));
        }
    }
    // "Add labels to an issue", `addProject`, `/issues/{n}/labels` with an add: an add to an
    // instance's set, or one that says where to ("to a channel"). "Add a group" creates one.
    let into_something = path.contains('{') || lead_words.iter().any(|w| w == "to");
    // ("Assign a group owner" joins the owners as an add does.)
    if into_something && heads.iter().any(|h| h == "add" || h == "assign") {
        // The object of the add, up to "to": `labels` of "Add labels to an issue", not `topic`
        // of "Add a message to the topic" (which posts a message).
        // Its head noun, the last word before "to" or another preposition: `assignments` of
        // "Add organization assignments", not `user` of "Add user avatar". "Add or update"
        // sets.
        let head_noun = |w: &[String]| -> Option<String> {
            if w.get(1).is_some_and(|x| x == "or") {
                return None;
            }
            w.iter()
                .skip(1)
                .take_while(|x| !PREPOSITIONS.contains(&x.as_str()))
                .last()
                .cloned()
        };
        // Adding metadata sets keys to values (Formance's `v2AddMetadataToAccount`): a retry
        // sets them again.
        if head_noun(lead_words)
            .into_iter()
            .chain(head_noun(id_words))
            .any(|w| w == "metadata")
        {
            return Effect::Updates;
        }
        let object = head_noun(lead_words)
            .into_iter()
            .chain(head_noun(id_words))
            .chain(seg_words.iter().cloned())
            .find(|w| {
                SET_NOUNS
                    .iter()
                    .chain(EXISTING_THING_NOUNS)
                    .any(|n| inflects(w, n))
            });
        if let Some(noun) = object {
            return Effect::JoinsSet(noun);
        }
        // Whatever is added to an allowlist or a blocklist joins a set: Box's "Add domain to
        // list of allowed collaboration domains", "Add an IP address to the blocklist". (Not
        // any list: "Add a card to the list of cards" makes a card, and "to the end of the
        // list" appends.)
        let to_a_list = lead_words.iter().enumerate().any(|(i, w)| {
            let after = &lead_words[(i + 1).min(lead_words.len())..(i + 4).min(lead_words.len())];
            w == "to"
                && after.iter().enumerate().any(|(k, x)| match x.as_str() {
                    "allowlist" | "whitelist" | "blocklist" | "blacklist" | "denylist" => true,
                    // "to the allow list", "to the suppression list".
                    "list"
                        if k > 0
                            && matches!(
                                after[k - 1].as_str(),
                                "allow"
                                    | "block"
                                    | "deny"
                                    | "safe"
                                    | "suppression"
                                    | "exclusion"
                                    | "ignore"
                            ) =>
                    {
                        true
                    }
                    "list" => {
                        after.get(k + 1).is_some_and(|o| o == "of")
                            && lead_words.get(i + 1 + k + 2).is_some_and(|a| {
                                matches!(
                                    a.as_str(),
                                    "allowed"
                                        | "blocked"
                                        | "denied"
                                        | "trusted"
                                        | "approved"
                                        | "banned"
                                        | "permitted"
                                        | "exempt"
                                )
                            })
                    }
                    _ => false,
                })
        });
        if to_a_list && let Some(noun) = head_noun(lead_words) {
            return Effect::JoinsSet(noun);
        }
    }
    if is(UPDATE_VERBS).is_some() {
        return Effect::Updates;
    }
    // A plan swapped for the one the body names (Square's `swap-plan`, sent the new variation)
    // is set again by a repeat; a swap of currencies, tokens or assets is an exchange, made
    // anew each time.
    let exchanged = |w: &String| {
        [
            "currency", "token", "asset", "coin", "crypto", "fund", "money", "balance",
        ]
        .iter()
        .any(|n| inflects(w, n))
    };
    if is(&["swap"]).is_some()
        && !seg_words
            .iter()
            .chain(lead_words.iter().take(6))
            .chain(id_words.iter())
            .any(exchanged)
    {
        return Effect::Updates;
    }
    if let Some(verb) = is(SEND_VERBS) {
        return Effect::Sends(verb);
    }
    // Stripe's `POST /v1/invoices/{invoice}` (`PostInvoicesInvoice`, "Draft invoices are fully
    // editable"): a POST to a resource the same path also reads or deletes, named after its
    // path rather than by a verb (`fireEvent` fires), updates that resource.
    let addressed = op
        .neighbours
        .iter()
        .any(|m| matches!(m, Method::Get | Method::Delete | Method::Put));
    // Named after the path: an operationId of the method and the path's words only, and no
    // summary to say more ("Enqueue a job" at `/queues/{queue_name}` adds to the queue).
    let named_after_path = || {
        let path_words: Vec<String> = path.split('/').flat_map(words).collect();
        !id_words.is_empty()
            && id_words
                .iter()
                .all(|w| w == op.method.key() || path_words.contains(w))
            && op.node.node.get("summary").is_none()
    };
    // (Or the one thing of its kind under a resource: Stripe's `PostChargesChargeDispute` at
    // `/v1/charges/{charge}/dispute`, beside its GET.)
    if (ends_with_parameter || one_of_its_kind(op))
        && addressed
        && !heads.iter().any(|h| WRITE_VERBS.contains(&h.as_str()))
        && named_after_path()
    {
        return Effect::Updates;
    }
    creates_or_replaces(op)
}

/// Whether the last segment names the one thing of its kind under the resource its path names
/// (`/users/{user_id}/avatar`, Stripe's `/v1/charges/{charge}/dispute`): a singular noun right
/// under a parameter (or a plural one that the same path reads and replaces as one object), with
/// no item path under it. Not an OData action (`microsoft.graph.copy`)
/// or a verb (`rerun`), which act; not what a resource has many of, whatever the spelling
/// (Jira's `/issue/{id}/comment` adds a comment: comments, notes and messages are many).
fn one_of_its_kind(op: &Operation<'_>) -> bool {
    let path = op.path.split('?').next().unwrap_or(op.path);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let [.., parent, last] = segments.as_slice() else {
        return false;
    };
    if !parent.starts_with('{') || last.starts_with('{') || op.item_parameter.is_some() {
        return false;
    }
    let noun = words(odata_action(last)).pop().unwrap_or_default();
    // (A plural name read at the same path and replaced there by a PUT of one object, not a
    // list, with no item path under it, is one thing too: Xero's
    // `/Employees/{EmployeeID}/ukopeningbalances`, read, made and replaced there.)
    let singular = !noun.ends_with('s')
        || ["ss", "us", "is"].iter().any(|e| noun.ends_with(e))
        || (op.replaced_as_one && op.neighbours.contains(&Method::Get))
        || op.read_as_one;
    let many = [
        "comment",
        "note",
        "worklog",
        "attachment",
        "message",
        "reply",
        "post",
        "entry",
        "version",
    ];
    !last.contains('.')
        && singular
        && !WRITE_VERBS.contains(&noun.as_str())
        && !STARTING_VERBS.contains(&noun.as_str())
        && !many.contains(&base_verb(&noun).as_str())
}

/// Whether a transition by `verb` is a switch of the resource its path names (enable, pause,
/// lock, archive, undelete: see [`crate::vocabulary::TOGGLE_VERBS`]), which the same request
/// repeated leaves where it is. A `restore` undeletes what its path names (Formance's bucket),
/// unless that is a backup, snapshot or version, from which it makes or overwrites something
/// ("Restore a backup into a new database instance").
pub fn is_switch(op: &Operation<'_>, verb: &str) -> bool {
    crate::vocabulary::TOGGLE_VERBS.contains(&verb)
        // Expiring a credential (Okta's `expire_password`), not a checkout session, whose
        // expiry ends it as a cancel does.
        && (verb != "expire"
            || words(op.path).iter().any(|w| {
                matches!(
                    base_verb(w).as_str(),
                    "password" | "token" | "credential" | "secret"
                )
            }))
        && (verb != "restore"
            || !words(op.path).iter().any(|w| {
                matches!(
                    base_verb(w).as_str(),
                    "backup"
                        | "snapshot"
                        | "version"
                        | "revision"
                        | "checkpoint"
                        | "deploy"
                        | "deployment"
                        | "point"
                        | "recovery"
                )
            }))
}

/// [`creates`], unless what is made is the one of its kind under the resource its path names
/// (`/users/{user_id}/avatar`, `/apps/{appId}/logo`): made again, it replaces the first instead
/// of adding another.
fn creates_or_replaces(op: &Operation<'_>) -> Effect {
    // The one of its kind when the same path also reads, replaces or deletes it (Box's avatar),
    // or when it is uploaded (Okta's "Upload an application logo"); "Create a video remix"
    // makes another each time.
    let singleton = one_of_its_kind(op);
    let names = NameWords::of(op);
    let heads = names.heads(op, false);
    let addressed = op
        .neighbours
        .iter()
        .any(|m| matches!(m, Method::Put | Method::Delete))
        && heads.iter().any(|h| {
            CREATE_WORDS.contains(&h.as_str()) || matches!(h.as_str(), "add" | "upload" | "post")
        });
    let uploaded = heads.iter().any(|h| h == "upload");
    if singleton && (addressed || uploaded) {
        Effect::Updates
    } else {
        creates(op)
    }
}

/// A create, or one whose summary or description says it makes something that expires on its
/// own.
fn creates(op: &Operation<'_>) -> Effect {
    // A part of an upload (OpenAI's `/uploads/{upload_id}/parts`, a chunk of an upload
    // session): the upload is completed with the parts the client lists, and one a retry adds
    // is left out and expires with the upload.
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    if let [.., collection, parent, last] = segments.as_slice()
        && parent.starts_with('{')
        && matches!(words(last).as_slice(), [w] if w == "parts")
        && words(collection)
            .iter()
            .any(|w| w == "uploads" || w == "upload")
    {
        return Effect::ShortLived("a part of an upload, which its completion lists".to_string());
    }
    // A session (an upload session, a checkout session, a realtime session) is made to be used
    // once and expires: a retry's duplicate is left unused.
    let names = NameWords::of(op);
    let made = [names.seg.last().cloned(), names.id.last().cloned()];
    // Sessions of a kind that is used once (upload, checkout, login, payment, realtime, …),
    // not a training session booked; a quote whose text says it expires (Checkout's FX quote,
    // "before the quote expires"), not a sales quote kept on file.
    let path_words = || -> Vec<String> {
        op.path
            .split('/')
            .filter(|s| !s.starts_with('{'))
            .flat_map(words)
            .chain(
                op.operation_id
                    .map(|id| words(action_part(id)))
                    .unwrap_or_default(),
            )
            .chain(lead_text(op).map(|(_, t)| words(&t)).unwrap_or_default())
            .collect()
    };
    // (Judged only of a session or a quote: the words cost.)
    let ephemeral_kind = || {
        path_words().iter().any(|w| {
            matches!(
                w.as_str(),
                "upload"
                    | "checkout"
                    | "auth"
                    | "login"
                    | "payment"
                    | "verification"
                    | "portal"
                    | "billing"
                    | "account"
                    | "link"
                    | "realtime"
                    | "chat"
                    | "chatkit"
                    | "connections"
                    | "identity"
                    | "terminal"
                    | "transcription"
                    | "oauth"
                    | "sso"
                    | "browser"
                    | "import"
            )
        })
    };
    // "Before the quote expires", not "sessions never expire", nor a field named in the text
    // (Stripe's quote: "Default options for … `expires_at` can be set in the dashboard").
    let says_expires = || {
        ["summary", "description"].iter().any(|k| {
            op.node
                .node
                .get(k)
                .and_then(Node::as_str)
                .is_some_and(says_it_expires)
        })
    };
    // (So is an OAuth ticket the user is yet to approve: Netlify's `createTicket` at
    // `/oauth/tickets`.)
    if let Some(noun) = made.into_iter().flatten().find(|w| match w.as_str() {
        "session" | "sessions" => ephemeral_kind() || says_expires(),
        "ticket" | "tickets" => path_words()
            .iter()
            .any(|w| matches!(w.as_str(), "oauth" | "auth" | "login" | "sso")),
        "quote" | "quotes" => says_expires(),
        _ => false,
    }) {
        return Effect::ShortLived(format!("a {}", noun.trim_end_matches('s')));
    }
    for key in ["summary", "description"] {
        let Some(text) = op.node.node.get(key).and_then(Node::as_str) else {
            continue;
        };
        // (A text that holds none of the wording's words has it in no sentence.)
        let lower = text.to_ascii_lowercase();
        if ![
            "short",
            "ephemeral",
            "single",
            "one-time",
            "one time",
            "expir",
        ]
        .iter()
        .any(|w| lower.contains(w))
        {
            continue;
        }
        // The sentence must speak of what is made, not of a link in the response ("The download
        // URL in the response expires after 1 hour").
        // Summaries wrap lines mid-sentence ("expires after\nan hour"): sentences end at a full
        // stop or a blank line, not at a line break.
        let text = text
            .replace("\r\n", "\n")
            .replace("\n\n", ". ")
            .replace('\n', " ");
        // A single-use token is what the call makes when the sentence says it makes one
        // ("Creates a single-use token") or the path collects tokens; "Pass the single-use token
        // returned by the card form" to save a card speaks of an input.
        let makes_tokens = || {
            words(last_literal_segment(op.path))
                .last()
                .is_some_and(|w| matches!(w.as_str(), "token" | "tokens" | "code" | "codes"))
        };
        let of_the_thing = text.split(['.', ';']).find_map(|sentence| {
            let lower = sentence.to_ascii_lowercase();
            let m = SHORT_LIVED.find(sentence)?;
            let token = ["token", "code", "link"]
                .iter()
                .any(|t| m.as_str().to_ascii_lowercase().contains(t));
            // ("Creates a single-use login link", "Creates an AccountLink object that
            // includes a single-use Stripe URL": the link is what is made.)
            // (A URL only where the path collects links or URLs: Stripe's `/v1/account_links`,
            // not an export that "returns a single-use download URL".)
            let made_link = {
                let said = m.as_str().to_ascii_lowercase();
                said.contains(" link")
                    || (said.ends_with(" url")
                        && words(last_literal_segment(op.path))
                            .last()
                            .is_some_and(|w| {
                                matches!(w.as_str(), "link" | "links" | "url" | "urls")
                            }))
            };
            let made = || {
                words(&sentence[..m.start()]).iter().any(|w| {
                    matches!(
                        base_verb(w).as_str(),
                        "create" | "generate" | "issue" | "mint" | "make"
                    )
                })
            };
            (((!lower.contains("url") && !lower.contains("link")) || (made_link && made()))
                && (!token || made() || makes_tokens()))
            .then(|| m.as_str().to_string())
        });
        if let Some(words) = of_the_thing {
            // (Unless the call also sends it: Okta's forgot password makes a one-time token and,
            // by its `sendEmail`, emails the link; a retry emails a second one.)
            if let Some(by) = emails_what_it_makes(op) {
                return Effect::Sends(by);
            }
            return Effect::ShortLived(words);
        }
    }
    Effect::Creates
}

/// What says the call sends what it makes to a person: a parameter that asks it to
/// (`sendEmail`, `send_sms`, `notify_user`), or a word that says it is emailed or texted.
fn emails_what_it_makes(op: &Operation<'_>) -> Option<String> {
    // (To a person: a lone `notify` may publish an event.)
    let asks = op.parameters.iter().find(|p| {
        let w = words(p.name);
        w.iter().any(|x| matches!(x.as_str(), "send" | "notify"))
            && w.iter()
                .any(|x| matches!(x.as_str(), "email" | "mail" | "sms" | "user"))
    });
    if let Some(p) = asks {
        return Some(p.name.to_string());
    }
    // (Not denied: "is never emailed".)
    op.texts().find_map(|d| {
        let w = words(d);
        w.iter()
            .enumerate()
            .find(|(at, x)| {
                matches!(x.as_str(), "emailed" | "texted" | "mailed")
                    // ("never emailed or texted": the denial reaches across an "or".)
                    && !w[at.saturating_sub(4)..*at]
                        .iter()
                        .any(|x| matches!(x.as_str(), "not" | "never" | "t"))
            })
            .map(|(_, x)| x.clone())
    })
}

/// Whether a text says something expires, as a word ("before the quote expires"): not denied
/// just before it ("sessions never expire", "doesn't expire"), nor the name of a field
/// (Stripe's quote: "Default options for … `expires_at` can be set in the dashboard";
/// `expiresAt`). One pass over the text's tokens, remembering the two before each.
fn says_it_expires(text: &str) -> bool {
    if !text.to_ascii_lowercase().contains("expir") {
        return false;
    }
    let mut before: [&str; 2] = ["", ""];
    for token in text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
    {
        // (A word that starts so: "expires", "expiry"; not "unexpired".)
        let expiry_word = token
            .as_bytes()
            .get(..5)
            .is_some_and(|x| x.eq_ignore_ascii_case(b"expir"));
        // (`expiresAt`, not `EXPIRES`: a capital after a small letter.)
        let identifier = token.contains('_')
            || token
                .as_bytes()
                .windows(2)
                .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase());
        if expiry_word
            && !identifier
            && !before.iter().any(|n| {
                ["never", "not", "t", "nt"]
                    .iter()
                    .any(|d| n.eq_ignore_ascii_case(d))
            })
        {
            return true;
        }
        before = [before[1], token];
    }
    false
}

/// The words of an operation's text that say it exists for testing only: said of the call
/// anywhere in its description ("you should only use it for testing purposes", Okta's inline
/// hook `execute`), or heading its text ("For testing only"). "Card numbers … are for testing
/// purposes only" in a description speaks of something else.
fn testing_only(op: &Operation<'_>) -> Option<&'static str> {
    let of_the_call = ["only use it for testing", "only use this for testing"];
    let heading = [
        "for testing only",
        "for testing purposes only",
        "testing purposes only",
        "only for testing",
    ];
    // (Every wording says "testing": a text without it is not copied to lower case, which
    // costs on the long descriptions of every operation of a large spec.)
    let says_testing = |t: &str| {
        memchr::memmem::find(t.as_bytes(), b"esting").is_some()
            || memchr::memmem::find(t.as_bytes(), b"ESTING").is_some()
    };
    let text = |k: &str| op.node.node.get(k).and_then(Node::as_str);
    if let Some(d) = text("description").filter(|d| says_testing(d)) {
        let lower = d.to_ascii_lowercase();
        if let Some(p) = of_the_call.into_iter().find(|p| lower.contains(p)) {
            return Some(p);
        }
    }
    if !["summary", "description"]
        .iter()
        .filter_map(|k| text(k))
        .any(says_testing)
    {
        return None;
    }
    let lead = lead_text(op)?.1.to_ascii_lowercase();
    heading
        .into_iter()
        .chain(of_the_call)
        .find(|p| lead.contains(p))
}

/// The word that says the operation only exists in a test mode, if one does: a path segment
/// `sandbox` or `test_helpers`, or `simulate(s)`/`simulation(s)` in a segment or the
/// operationId. Duplicates there make test data, not double charges.
pub fn test_mode(op: &Operation<'_>) -> Option<String> {
    // "Only use it for testing", "for testing purposes only" (Okta's inline hook `execute`).
    if let Some(m) = testing_only(op) {
        return Some(format!("\"{m}\""));
    }
    let simulates = |w: &String| inflects(w, "simulate") || inflects(w, "simulation");
    for segment in op.path.split('/') {
        let w = words(segment);
        if w.iter().any(|x| x == "sandbox") {
            return Some("sandbox".to_string());
        }
        if w.first().is_some_and(|x| x == "test") && w.get(1).is_some_and(|x| x == "helpers") {
            return Some(segment.to_string());
        }
        if let Some(x) = w.iter().find(|x| simulates(x)) {
            return Some(x.clone());
        }
    }
    op.operation_id
        .and_then(|id| words(id).into_iter().find(simulates))
}

/// The verb of a POST that only deletes or removes, if it is one: the head verb of its
/// operationId, summary (else description) or last path segment is a deleting verb, and none
/// of them is another write verb ("Delete and recreate" is no delete).
fn deletes(op: &Operation<'_>) -> Option<String> {
    let names = NameWords::of(op);
    let lead_words = &names.lead;
    // "Delete and recreate the index": the verb after "and" counts too.
    let heads = names.heads(op, true);
    let verb = heads.iter().find(|h| DELETE_VERBS.contains(&h.as_str()));
    if ordinal_delete(op).is_some() {
        return None;
    }
    // A write verb, or one done again (`recreate`, `reupload`: `re` and a write verb).
    let writes = |h: &str| {
        WRITE_VERBS.contains(&h)
            || h.strip_prefix("re")
                .is_some_and(|v| WRITE_VERBS.contains(&v))
    };
    // (Recording what was removed writes a record of it: "Records items removed from a
    // warehouse's stock"; a removal from a set is read as the removal, see `event_to_verb`.)
    let other_write = heads.iter().any(|h| {
        (writes(h) && !DELETE_VERBS.contains(&h.as_str()))
            || matches!(h.as_str(), "record" | "register" | "log")
    }) || lead_words
        .iter()
        .take(6)
        .any(|w| CREATE_WORDS.contains(&w.as_str()));
    // What the other write sends is what is to be deleted (Okta's `bulk-delete`, "Upload the
    // data to be deleted", `uploadIdentitySourceDataForDelete`): the call stages a delete.
    let for_deletion = |w: &[String]| {
        w.windows(3).any(|x| {
            x[0] == "to" && x[1] == "be" && DELETE_VERBS.contains(&base_verb(&x[2]).as_str())
        }) || w.windows(2).any(|x| {
            x[0] == "for"
                && (DELETE_VERBS.contains(&x[1].as_str())
                    || matches!(x[1].as_str(), "deletion" | "removal"))
        })
    };
    let staged = for_deletion(lead_words) || for_deletion(&names.id);
    // A verb that makes something of its own: "Create a request for deletion", "Schedule the
    // account for deletion" make a request and a schedule, whatever they are for.
    let makes = heads.iter().any(|h| {
        matches!(
            h.as_str(),
            "create" | "submit" | "request" | "schedule" | "add" | "open" | "file"
        )
    });
    match verb {
        Some(verb) => (!other_write || (staged && !makes)).then(|| verb.clone()),
        // What it sends is to be deleted, whatever its head verb (Okta's
        // `uploadIdentitySourceGroupsDataForDelete` at `…/bulk-groups-delete`, "Upload the group
        // external IDs to be deleted in Okta"): it stages a delete.
        // Only where the call is named for the delete (a last segment or an operationId word)
        // and makes nothing of its own: "Create a request for deletion" at `/privacy/requests`
        // or "Schedule the account for deletion" makes a request or a schedule, each time.
        None => {
            let delete_word = |w: &String| {
                DELETE_VERBS.contains(&base_verb(w).as_str())
                    || matches!(
                        w.as_str(),
                        "deletion" | "deletions" | "removal" | "removals"
                    )
            };
            let named = names.seg.iter().chain(&names.id).any(delete_word);
            (staged && named && !makes).then(|| "delete".to_string())
        }
    }
}

/// The delete verb of a POST that deletes "the last", "the first" or "the next" one, whose every
/// repeat deletes another ("Deletes the last level"): a retry's damage no duplicate undoes.
pub fn ordinal_delete(op: &Operation<'_>) -> Option<String> {
    let names = NameWords::of(op);
    let verb = names
        .heads(op, true)
        .into_iter()
        .find(|h| DELETE_VERBS.contains(&h.as_str()))?;
    let ordinal = |t: &str| {
        words(t)
            .iter()
            .take(12)
            .any(|w| matches!(w.as_str(), "last" | "first" | "next" | "oldest" | "newest"))
    };
    ["summary", "description"]
        .iter()
        .filter_map(|k| op.node.node.get(k).and_then(Node::as_str))
        .any(ordinal)
        .then_some(verb)
}

/// Why `op`'s duplicates do not matter by its nature, if they do not: it passes through, or
/// (for a POST) it only reads. `None` for an operation that changes state.
pub fn exemption(op: &Operation<'_>, settings: &Settings) -> Option<Exemption> {
    if let Some(why) = passes_through(op) {
        return Some(Exemption::PassesThrough(why));
    }
    if let Some(why) = test_mode(op) {
        return Some(Exemption::TestMode(why));
    }
    if op.method != Method::Post {
        return None;
    }
    if let Some(verb) = deletes(op) {
        return Some(Exemption::Deletes(verb));
    }
    if let Some(why) = streams_its_export(op) {
        return Some(Exemption::Reads(why));
    }
    if let Some(verb) = NameWords::of(op)
        .heads(op, true)
        .into_iter()
        .find(|h| REDELIVERY_VERBS.contains(&h.as_str()))
    {
        return Some(Exemption::Redelivers(verb));
    }
    // Firing again an event the path names (Unit's `fireEvent` at `/events/{eventId}`, beside
    // its GET, with nothing sent): it keeps its id, on which receivers dedupe. One sent a body
    // or answered 201 makes an event.
    if op.request_body.is_none()
        && op.response("201").is_none()
        && op
            .neighbours
            .iter()
            .any(|m| matches!(m, Method::Get | Method::Delete))
        && let [.., collection, last] = op
            .path
            .split('/')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .as_slice()
        && last.starts_with('{')
        && words(collection).last().is_some_and(|w| w == "events")
        && let Some(verb) = NameWords::of(op)
            .heads(op, false)
            .into_iter()
            .find(|h| matches!(h.as_str(), "fire" | "resend" | "trigger"))
    {
        return Some(Exemption::Redelivers(verb));
    }
    reads(op, settings).map(Exemption::Reads)
}

/// An export or download answered with the exported bytes themselves, sent nothing to keep
/// (Formance's `v2ExportLogs`: no body, `200` with `application/octet-stream`): the export is
/// the response, and nothing is left behind to duplicate. One answered 201 or 202, or with a
/// JSON document (an export job to fetch later), makes something.
fn streams_its_export(op: &Operation<'_>) -> Option<String> {
    if op.request_body.is_some() {
        return None;
    }
    let heads = NameWords::of(op).heads(op, true);
    let verb = heads
        .iter()
        .find(|h| matches!(h.as_str(), "export" | "download" | "dump"))?
        .clone();
    // "Generate and download the invoice PDF", "Create and export a report": the other verb
    // makes what is downloaded, and may keep it.
    // ("Request a CSV export" still only asks for what it streams.)
    if heads.iter().any(|h| {
        CREATE_WORDS.contains(&h.as_str())
            || matches!(
                h.as_str(),
                "generate" | "build" | "make" | "produce" | "compile" | "add" | "new"
            )
    }) {
        return None;
    }
    let successes: Vec<_> = op
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .collect();
    let file = |media: &str| {
        let media = crate::model::media_essence(media);
        media == "application/octet-stream"
            || media == "text/csv"
            || media == "application/zip"
            || media == "application/gzip"
            || media == "application/x-ndjson"
    };
    let streamed = !successes.is_empty()
        && successes.iter().all(|r| {
            r.status == "200"
                && (r.node.get("content").is_some_and(|c| {
                    let media = c.node.entries();
                    !media.is_empty() && media.iter().all(|e| file(&e.key.text))
                })
                    // Swagger 2.0: a `file` schema.
                    || r.node
                        .get("schema")
                        .and_then(|s| s.node.get("type"))
                        .and_then(Node::as_str)
                        == Some("file"))
        });
    streamed.then(|| format!("{verb}s what it is asked for in its response, as a file"))
}

/// `op` hands its request to another target.
fn passes_through(op: &Operation<'_>) -> Option<String> {
    // A connection upgraded to a stream (Docker's attach and exec start answer
    // `101 Switching Protocols`): what flows over it is the target's.
    if op.response("101").is_some() {
        return Some("101 Switching Protocols".to_string());
    }
    let segment = last_literal_segment(op.path);
    let seg_words = words(segment);
    if seg_words.len() == 1 && PROXY_SEGMENTS.contains(&seg_words[0].as_str()) {
        return Some(seg_words[0].clone());
    }
    let connect_action = op
        .extension("x-kubernetes-action")
        .and_then(|a| a.node.as_str().map(|s| s.eq_ignore_ascii_case("connect")))
        .unwrap_or(false);
    let id_words = op.operation_id.map(|_| &NameWords::of(op).id);
    let connect_id = id_words.is_some_and(|w| {
        w.first().is_some_and(|h| h == "connect")
            && w.get(1).is_some_and(|m| METHODS.contains(&m.as_str()))
    });
    if connect_action || connect_id {
        let joined = seg_words.concat();
        let what = if CONNECT_SEGMENTS.contains(&joined.as_str()) {
            joined
        } else {
            "connect".to_string()
        };
        return Some(what);
    }
    None
}

/// Why a POST only reads, if it does (see the module documentation).
fn reads(op: &Operation<'_>, settings: &Settings) -> Option<String> {
    let segment = last_literal_segment(op.path);
    let names = NameWords::of(op);
    let (seg_words, id_words) = (&names.seg, &names.id);
    // Compound nouns glued in lower case (`selfsubjectaccessreviews`) end in their head noun.
    let glued = segment.to_ascii_lowercase();
    for (a, b) in DOMAIN_READS {
        let pair = format!("{a}{b}");
        if glued.len() > pair.len() + 1
            && [pair.clone(), format!("{pair}s")]
                .iter()
                .any(|p| glued.ends_with(p.as_str()))
        {
            return Some(format!("{a} {b}"));
        }
    }
    let lead = lead_text(op);
    let lead_words = lead.as_ref().map(|(_, t)| words(t)).unwrap_or_default();
    let quote = || lead.as_ref().map(|(kind, t)| quote_lead(kind, t));

    // Domain reads, worded as actions, come before the veto of write verbs.
    for w in [seg_words, id_words, &lead_words] {
        if let Some((a, b)) = domain_read(w) {
            return Some(format!("{a} {b}"));
        }
    }
    // So does what a model computes of its input ("Creates an embedding vector" at
    // `/embeddings`), where nothing is kept to fetch later (no item path under it).
    if op.item_parameter.is_none()
        && let Some(w) = seg_words.last().filter(|w| {
            crate::vocabulary::MODEL_EVALUATIONS
                .iter()
                .any(|v| inflects(w, v))
        })
    {
        return Some(w.clone());
    }
    if lead_words
        .first()
        .is_some_and(|h| TEST_VERBS.contains(&h.as_str()))
        || (seg_words.len() == 1 && TEST_VERBS.contains(&seg_words[0].as_str()))
    {
        return Some(quote().unwrap_or_else(|| seg_words[0].clone()));
    }

    // Verbs in head position match exactly: `verification_sessions` is a noun phrase.
    let verb = |w: &str| {
        settings
            .read_only_words
            .iter()
            .chain(&settings.reading_verbs)
            .map(String::as_str)
            .chain(EVALUATING_VERBS.iter().copied())
            .find(|v| v.eq_ignore_ascii_case(w))
            .map(|v| v.to_string())
    };
    let seg_head = head_verb(seg_words, None);
    let summary = summary_head(&lead_words);
    // The verb of the summary: "Invoke action sendMail" sends.
    let summary_verb = summary
        .as_ref()
        .map(|(head, rest)| rest.and_then(|r| head_verb(r, None)).unwrap_or(head));
    // A write verb at the head of the operationId, the segment or the summary vetoes; but not
    // the CRUD verb of an operationId generated from the path when the segment and the
    // description say it reads (Twilio's `UpdateFlowValidate` for `/Flows/Validate`, "Validate
    // flow JSON definition"): that verb says how the SDK calls it, not what it does.
    let reads_by_verb = seg_head.and_then(verb).is_some() && summary_verb.and_then(verb).is_some();
    let id_head = head_verb(id_words, Some(op.method.key()))
        .filter(|_| !(reads_by_verb && generated_from_path(id_words, op.path)));
    if [id_head, seg_head, summary_verb]
        .into_iter()
        .flatten()
        .any(|h| WRITE_VERBS.contains(&h))
    {
        return None;
    }

    if let Some(w) = id_head.and_then(verb) {
        return Some(w);
    }
    if let Some(w) = seg_head.and_then(verb) {
        return Some(w);
    }
    // "Invoke function f" reads (OData functions have no side effects); "Invoke action f"
    // reads as `f` does.
    if let Some((head, rest)) = &summary {
        let rest = *rest;
        let reads = verb(head).is_some()
            || (head == "function" && rest.is_some_and(|r| !r.is_empty()))
            || rest
                .and_then(|r| head_verb(r, None))
                .and_then(verb)
                .is_some();
        if reads {
            return quote();
        }
    }

    // Nouns (`/tax/calculations`, `/oauth2/token`, `runReportQuery`) name a read less surely
    // than a verb does: a `201 Created` says something was made after all.
    if op.response("201").is_some() {
        return None;
    }
    // Of the result, not of some input: "The generated release notes are not saved", not "Card
    // numbers are not stored by the merchant".
    if let Some(description) = op.node.node.get("description").and_then(Node::as_str)
        && let Some(m) = description.split(['.', ';', '\n']).find_map(|sentence| {
            let m = NOT_STORED.find(sentence)?;
            words(sentence)
                .iter()
                .any(|w| {
                    matches!(
                        w.as_str(),
                        "generated"
                            | "result"
                            | "results"
                            | "response"
                            | "output"
                            | "preview"
                            | "nothing"
                            | "it"
                            | "this"
                    )
                })
                .then_some(m)
        })
    {
        return Some(format!("description \"{}\"", m.as_str()));
    }
    let noun = |w: &str| {
        settings
            .read_only_words
            .iter()
            .map(String::as_str)
            .chain(EVALUATING_NOUNS.iter().copied())
            .find(|v| inflects(w, &v.to_ascii_lowercase()))
            .map(str::to_string)
    };
    if let Some(w) = seg_words.last().and_then(|w| noun(w)) {
        return Some(w);
    }
    // A noun-first operationId by its last word, unless that word comes from a path parameter,
    // as in ids generated from the path (`PostShippingRatesShippingRateToken` for
    // `/v1/shipping_rates/{shipping_rate_token}`).
    let parameter_words: Vec<String> = path_parameters(op.path).flat_map(words).collect();
    id_words
        .last()
        .filter(|w| !parameter_words.contains(w))
        .and_then(|w| noun(w))
}

/// The text whose first words say what the operation does: its summary, else the first
/// sentence of its description (HTML tags dropped: `<p>Creates a session.</p>`).
pub fn lead_text(op: &Operation<'_>) -> Option<(&'static str, String)> {
    let text = |key: &str| {
        op.node
            .node
            .get(key)
            .and_then(Node::as_str)
            .filter(|t| !t.trim().is_empty())
    };
    if let Some(summary) = text("summary") {
        return Some(("summary", summary.to_string()));
    }
    let description = text("description")?;
    let mut plain = String::new();
    let mut in_tag = false;
    for c in description.chars().take(200) {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                plain.push(' ');
            }
            _ if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let first = plain.split(['.', '\n']).find(|s| !s.trim().is_empty())?;
    Some(("description", first.trim().to_string()))
}

/// Whether an action on one resource (`/runs/{run_id}/submit_tool_outputs`) opens by saying
/// it is accepted only in one of its states: "When a run has the `status: "requires_action"`
/// …, this endpoint can be used to submit the outputs", "If the status of the dispute is …".
/// The call moves the resource out of that state, so a retry meets another state: the state
/// must be one that waits for a call (requires, awaiting, pending), and the action not one that
/// adds content (a comment, a message), which leaves the resource where it was.
pub fn gated_on_state(op: &Operation<'_>) -> bool {
    let mut segments = op.path.rsplit('/').filter(|s| !s.is_empty());
    let (Some(action), Some(parent)) = (segments.next(), segments.next()) else {
        return false;
    };
    if action.starts_with('{') || !parent.starts_with('{') {
        return false;
    }
    // The segment is the action its names say (`submit` of `submitToolOuputsToRun`), not a
    // collection of the resource (`/threads/{id}/messages`) nor a create.
    let names = NameWords::of(op);
    // (Not an action that adds content, which leaves the resource where it was: "If the
    // ticket's status is open or pending, adds a public comment" posts a second comment.)
    let acts = head_verb(&names.seg, None).is_some_and(|seg| {
        let seg = base_verb(seg);
        !matches!(
            seg.as_str(),
            "create"
                | "add"
                | "insert"
                | "new"
                | "comment"
                | "note"
                | "message"
                | "reply"
                | "post"
                | "send"
                | "upload"
                | "attach"
                | "append"
                | "log"
                | "record"
        ) && names.heads(op, false).contains(&seg)
    });
    if !acts {
        return false;
    }
    op.texts().any(|text| {
        // The opening clause only: a condition stated first governs the whole call.
        // (A state that waits for this call, "requires_action", "awaiting", "pending":
        // not an address's state, nor any status the call is merely allowed in.)
        let w = words(crate::heuristics::opening(text, 160));
        w.first()
            .is_some_and(|x| matches!(x.as_str(), "when" | "while" | "once" | "if"))
            && w.iter()
                .take(10)
                .any(|x| matches!(x.as_str(), "status" | "state"))
            && w.iter().take(16).any(|x| {
                matches!(
                    x.as_str(),
                    "requires" | "required" | "awaiting" | "waiting" | "pending"
                )
            })
    })
}

/// Whether what a create makes is an export of data that exists: the noun a create verb heads
/// (`createOrganizationExport`, "Create an organization export request") or the collection the
/// path ends in (`/uploads/{upl_id}/exports`, `/exports/graph` under "Initiate a graph export")
/// is an `export`; not an `exporter`, a setting that sends data elsewhere.
pub fn makes_an_export(op: &Operation<'_>) -> bool {
    let names = NameWords::of(op);
    let export = |w: &String| w == "export" || w == "exports";
    // (Not an export that also delivers it, which a retry delivers again: "Export a report and
    // email it", "Export contacts to a mailing list".)
    // (A send verb after "and" or "then", a list to mail to, or a description that emails it:
    // "Export email events" and "Export mailing list members" export; a copy put in the
    // client's own bucket is a spare copy too.)
    let delivers = || {
        names.lead.windows(2).any(|x| {
            matches!(x[0].as_str(), "and" | "then")
                && matches!(
                    base_verb(&x[1]).as_str(),
                    "email" | "mail" | "send" | "notify" | "sync" | "push"
                )
        }) || names
            .lead
            .windows(3)
            .any(|x| x[0] == "to" && (x[1] == "mailing" || x[2] == "mailing"))
            || op
                .node
                .node
                .get("description")
                .and_then(Node::as_str)
                .is_some_and(|d| {
                    words(d).windows(2).any(|x| {
                        matches!(x[0].as_str(), "emails" | "mails")
                            && matches!(x[1].as_str(), "it" | "them")
                    })
                })
    };
    // (A schedule of exports makes exports from then on: "Create a scheduled export".)
    // ("Export monthly invoices" exports invoices of a month.)
    let recurs = names
        .lead
        .iter()
        .take(5)
        .any(|w| matches!(w.as_str(), "scheduled" | "recurring"));
    // The export heads its phrase in the summary ("Initiate a graph export"), not a thing of it
    // ("Create an export schedule", "Add an export destination").
    // (Or of the export's own work, "Create a new export job"; or its verb, "Export contacts".)
    let heads = |lead: &[String]| {
        lead.first().is_some_and(|w| w == "export")
            || lead.iter().take(4).enumerate().any(|(at, w)| {
                export(w)
                    && lead.get(at + 1).is_none_or(|next| {
                        PREPOSITIONS.contains(&next.as_str())
                            || matches!(next.as_str(), "request" | "job" | "task" | "file" | "run")
                    })
            })
    };
    // (The export first: the description is read only for one.)
    !recurs
        && (created_nouns(op).iter().any(|n| n == "export")
            || names.seg.last().is_some_and(export)
            || (op
                .path
                .split('/')
                .any(|s| words(s).last().is_some_and(export))
                && heads(&names.lead)))
        && !delivers()
}

/// The first words of a summary or description, as a finding quotes them.
fn quote_lead(kind: &str, text: &str) -> String {
    format!(
        "{kind} \"{}\"",
        text.split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// A summary's head verb and, for "Invoke function f" / "Invoke action f", `f`'s words. The
/// head is `function` for a function, `action` for an action.
fn summary_head(words: &[String]) -> Option<(String, Option<&[String]>)> {
    let first = words.first()?.as_str();
    if first == "invoke" || first == "call" {
        return match words.get(1).map(String::as_str) {
            Some(kind @ ("function" | "action")) => Some((kind.to_string(), Some(&words[2..]))),
            _ => Some((first.to_string(), None)),
        };
    }
    Some((base_verb(first), None))
}

/// The base form of a verb in the third person, as summaries write them: "Gets" → "get",
/// "Searches" → "search", "Verifies" → "verify". Other words are left alone.
pub fn base_verb(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() >= 2) {
        return format!("{stem}y");
    }
    for ending in ["ches", "shes", "sses", "xes"] {
        if let Some(stem) = word.strip_suffix(ending) {
            return format!("{stem}{}", &ending[..ending.len() - 2]);
        }
    }
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !word.ends_with("ss") && !word.ends_with("us") => {
            stem.to_string()
        }
        _ => word.to_string(),
    }
}

/// The head verb of a verb-first name: the first word, after batch qualifiers and, in an
/// operationId generated from method and path (`PostCustomersSearch`), the operation's own
/// `method` when more words follow. A POST's `getSchedule` gets.
fn head_verb<'w>(words: &'w [String], method: Option<&str>) -> Option<&'w str> {
    let mut rest = words;
    if rest.len() > 1 && method.is_some_and(|m| rest[0] == m) {
        rest = &rest[1..];
    }
    // Qualifiers and adverbs before the verb: `BulkRetrieveBookings`, Microsoft Graph's
    // `tentativelyAccept`.
    while rest.len() > 1 && (QUALIFIERS.contains(&rest[0].as_str()) || adverb(&rest[0])) {
        rest = &rest[1..];
    }
    rest.first().map(String::as_str)
}

/// Whether an operationId is a CRUD verb and the words of its path (Twilio's
/// `UpdateFlowValidate` for `/v2/Flows/Validate`), as SDK generators write them.
fn generated_from_path(id_words: &[String], path: &str) -> bool {
    let singular = |w: &str| w.strip_suffix('s').unwrap_or(w).to_string();
    let path_words: Vec<String> = path
        .split('/')
        .filter(|s| !s.starts_with('{'))
        .flat_map(words)
        .map(|w| singular(&w))
        .collect();
    id_words.len() > 2
        && matches!(id_words[0].as_str(), "create" | "update")
        && id_words[1..]
            .iter()
            .all(|w| path_words.contains(&singular(w)))
}

/// An adverb of manner (`tentatively`, `partially`, `permanently`): no verb of its own.
fn adverb(word: &str) -> bool {
    word.len() > 6 && word.ends_with("ly") && !matches!(word, "reapply" | "multiply" | "resupply")
}

/// The first pair of [`DOMAIN_READS`] standing next to each other in `words`.
fn domain_read(words: &[String]) -> Option<(&'static str, &'static str)> {
    words.windows(2).find_map(|pair| {
        DOMAIN_READS
            .iter()
            .find(|(a, b)| inflects(&pair[0], a) && inflects(&pair[1], b))
            .copied()
    })
}

/// The names of a path's parameters: `customer` and `id` of `/customers/{customer}/x/{id}`.
fn path_parameters(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
}

/// The last path segment that is not a parameter: `search` of `/payments/search`, `proxy` of
/// `/pods/{name}/proxy/{path}`.
pub fn last_literal_segment(path: &str) -> &str {
    // Some specs tell operations apart by a query in the path key (`/responses?beta=true`).
    let path = path.split('?').next().unwrap_or(path);
    path.rsplit('/')
        .find(|s| !s.is_empty() && !s.starts_with('{'))
        .unwrap_or("")
}

/// The action of an OData bound operation segment: `getMemberGroups` of
/// `microsoft.graph.getMemberGroups`, `getSchedule` of `getSchedule(...)`.
fn odata_action(segment: &str) -> &str {
    let segment = segment.split('(').next().unwrap_or(segment);
    // A file extension is no namespace: `OutgoingCallerIds.json`, `chat.postMessage.json`.
    let segment = [".json", ".xml", ".csv", ".yaml", ".txt"]
        .iter()
        .find_map(|ext| segment.strip_suffix(ext))
        .unwrap_or(segment);
    segment.rsplit('.').next().unwrap_or(segment)
}

/// The part of an operationId that names the action: after the last `/`, `.` or `:` of a
/// namespaced id (`markdown/render`, `users.user.getMemberGroups`).
fn action_part(id: &str) -> &str {
    id.rsplit(['/', '.', ':'])
        .find(|s| !s.is_empty())
        .unwrap_or(id)
}

/// Whether `word` is `base` or an inflection of it: `queries` of `query`, `calculation` of
/// `calculate`, `verification` of `verify`, `presigned` of `presign`, `lookups` of `lookup`.
pub fn inflects(word: &str, base: &str) -> bool {
    if word == base {
        return true;
    }
    let Some(rest) = word.strip_prefix(base) else {
        // A base ending in `e` or `y` loses it before most endings.
        let (stem, endings): (&str, &[&str]) = if let Some(stem) = base.strip_suffix('e') {
            (stem, &["ion", "ions", "ing", "ed", "es", "or", "ors"])
        } else if let Some(stem) = base.strip_suffix('y') {
            (stem, &["ies", "ied", "ication", "ications"])
        } else {
            return false;
        };
        return word
            .strip_prefix(stem)
            .is_some_and(|rest| endings.contains(&rest));
    };
    ["s", "es", "ed", "ing", "d"].contains(&rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_match_and_glued_words_do_not() {
        for (word, base) in [
            ("search", "search"),
            ("searches", "search"),
            ("queries", "query"),
            ("calculations", "calculate"),
            ("validation", "validate"),
            ("verification", "verify"),
            ("verifications", "verify"),
            ("presigned", "presign"),
            ("lookups", "lookup"),
            ("tokens", "token"),
            ("estimates", "estimate"),
            ("previews", "preview"),
        ] {
            assert!(inflects(word, base), "{word} of {base}");
        }
        for (word, base) in [
            ("validatingwebhookconfigurations", "validate"),
            ("searchable", "search"),
            ("tokenizer", "token"),
            ("verifier", "verify"),
            ("logins", "log"),
            ("queryset", "query"),
        ] {
            assert!(!inflects(word, base), "{word} of {base}");
        }
    }

    #[test]
    fn operation_id_parts() {
        assert_eq!(action_part("users.user.getMemberGroups"), "getMemberGroups");
        assert_eq!(action_part("markdown/render"), "render");
        assert_eq!(action_part("createRefund"), "createRefund");
        assert_eq!(
            odata_action("microsoft.graph.getMemberGroups"),
            "getMemberGroups"
        );
        assert_eq!(
            odata_action("getSchedule(StartDateTime='x')"),
            "getSchedule"
        );
        let head = |id: &str| head_verb(&words(action_part(id)), Some("post")).map(str::to_string);
        assert_eq!(head("PostCustomersSearch").as_deref(), Some("customers"));
        assert_eq!(head("BulkRetrieveBookings").as_deref(), Some("retrieve"));
        assert_eq!(head("CreateVppTokens").as_deref(), Some("create"));
        assert_eq!(head("post").as_deref(), Some("post"));
    }
}
