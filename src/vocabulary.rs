//! The words idemlint judges operations by, in one place: what reads, writes, passes through,
//! moves money, carries a key or describes a change. The classifiers that use them
//! (`classify`, `heuristics`, `idempotency`) say how; the rule docs say so in RULES terms.
//! Every list holds whole lower-case words, compared after names are split into words.

// What an operation does (`classify`)

/// Verbs that change state. One of them at the head of an operationId or a summary vetoes
/// every read-only reading of the names.
pub const WRITE_VERBS: &[&str] = &[
    "create",
    // `swapTokens`: a swap writes, whatever noun follows it.
    "swap",
    "add",
    "insert",
    "new",
    "upload",
    "import",
    "update",
    "set",
    "replace",
    "modify",
    "edit",
    "change",
    "delete",
    "remove",
    "send",
    "submit",
    "publish",
    "issue",
    "register",
    "enroll",
    "activate",
    "deactivate",
    "approve",
    "reject",
    "cancel",
    "capture",
    "refund",
    "charge",
    "pay",
    "transfer",
    "start",
    "stop",
    "reset",
    "rotate",
    "revoke",
    "grant",
    "assign",
    "invite",
    "upsert",
    "save",
    "store",
    "archive",
    "restore",
    "move",
    "copy",
    "merge",
    "close",
    "open",
    "apply",
    "book",
    "reserve",
    "schedule",
    "enable",
    "disable",
    "accept",
    "decline",
    "dismiss",
    "trigger",
    "link",
    "unlink",
    "attach",
    "detach",
    "mark",
    "complete",
    "post",
];

/// Words that only qualify the verb after them: `BulkRetrieveBookings`, `batch-retrieve`.
pub const QUALIFIERS: &[&str] = &["bulk", "batch", "async", "multi"];

/// HTTP methods, which generated operationIds put first (`PostCustomersSearch`).
pub const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// Verbs that read or evaluate, beside the configurable lists, in head position only.
pub const EVALUATING_VERBS: &[&str] = &[
    "render",
    "lint",
    "evaluate",
    "compute",
    "count",
    "presign",
    "introspect",
    "classify",
    "detect",
    "autocomplete",
    // "Parse a given string expression into an attributeMappingSource object".
    "parse",
    // "Wait for a container": blocks until it stops, changes nothing.
    "wait",
];

/// Nouns that name an evaluation, beside the configurable read-only words, as the head noun of
/// a last segment: `/us_autocompletions`.
pub const EVALUATING_NOUNS: &[&str] = &["autocomplete"];

/// What a model computes of its input and gives back whole, keeping nothing (OpenAI's and
/// Mistral's `/embeddings` and `/moderations`): as the head noun of a last segment with no item
/// path under it, an evaluation; a retry computes the same answer again.
pub const MODEL_EVALUATIONS: &[&str] = &["embedding", "moderation"];

/// Domain reads worded as actions: two words that, next to each other in a name or summary,
/// mean a check or a computed answer with no lasting effect, however the API words the verb
/// ("Create Funds Confirmation", "Create a presigned URL", Kubernetes'
/// `createAuthorizationV1SelfSubjectAccessReview`).
pub const DOMAIN_READS: &[(&str, &str)] = &[
    ("confirm", "funds"),
    ("funds", "confirmation"),
    ("funds", "availability"),
    ("presigned", "url"),
    ("signed", "url"),
    ("access", "review"),
    ("token", "review"),
    ("rules", "review"),
    // Credential exchanges, like `/oauth/token` (Netlify's `exchangeTicket`).
    ("exchange", "ticket"),
    ("exchange", "token"),
    ("exchange", "code"),
    // Kubernetes' `selfsubjectreviews`: who the caller is, computed, never stored.
    ("subject", "review"),
    // A grader scores a sample and keeps nothing (OpenAI's `runGrader`).
    ("run", "grader"),
];

/// Verbs of a test delivery, read-only as a summary's head or a whole last segment.
pub const TEST_VERBS: &[&str] = &["test", "ping"];

/// Last path segments that pass a request through to another target. `exec`, `attach` and
/// `portforward` only count with a sign of Kubernetes' `connect` actions (an operationId
/// `connect<Method>…` or `x-kubernetes-action: connect`): `…/payment_methods/{id}/attach`
/// attaches a payment method.
pub const PROXY_SEGMENTS: &[&str] = &["proxy"];

pub const CONNECT_SEGMENTS: &[&str] = &["exec", "attach", "portforward"];

/// Verbs that move a resource to a state, which a repeat leaves as it is.
pub const TRANSITION_VERBS: &[&str] = &[
    "verify",
    "approve",
    "reject",
    "cancel",
    "activate",
    "deactivate",
    "archive",
    "unarchive",
    "dismiss",
    "enable",
    "disable",
    "close",
    "reopen",
    "lock",
    "unlock",
    "suspend",
    "unsuspend",
    "resume",
    "pause",
    "unpublish",
    "accept",
    "decline",
    "expire",
    "finalize",
    "complete",
    "restore",
    "undelete",
    // Opting in or out of something (Okta's "Opt in to Okta user communication emails").
    "opt",
    "revoke",
    "block",
    "unblock",
    "pin",
    "unpin",
    "star",
    "unstar",
    "follow",
    "unfollow",
    "mute",
    "unmute",
    "unsubscribe",
    "deny",
    "invalidate",
    "void",
    "restrict",
    "end",
    "stop",
    "release",
    "enter",
    "exit",
    "freeze",
    "unfreeze",
    "join",
    "leave",
    "disconnect",
    "revert",
    // Moving a message to a folder, a card to a list: a repeat finds it there.
    "move",
    // "Confirm the Order", "Confirm a PaymentIntent": a confirmed one is not confirmed again.
    "confirm",
    "terminate",
    // Settling one resource: a captured order, a paid invoice, an authorized order.
    "capture",
    "pay",
    "authorize",
    "authorise",
    "settle",
    // Starting, merging, adopting, connecting or upgrading one resource the path names: a
    // repeat finds it started, merged, adopted, connected or upgraded (Docker's
    // `/containers/{id}/start`, Gitea's `/pulls/{index}/merge`, `/networks/{id}/connect`).
    "start",
    "merge",
    "adopt",
    "connect",
    "upgrade",
    // Wiping or resetting one thing's state (Slack's `admin.users.session.reset`), moving one
    // payment along (Unit's `advance`).
    "reset",
    "advance",
    // Handing something over or granting a standing access: a repeat finds it done.
    "grant",
    "reverse",
    "transfer",
    "refer",
    // Okta's `/users/{id}/lifecycle/reactivate`: active again, or refused as not deactivated.
    "reactivate",
    // Setting a mark or a status ("Mark as read", Okta's `…/mark-error`): marked twice is marked.
    "mark",
];

/// Verbs that move a resource to a state only as the last segment under the resource they act
/// on (Docker's `/images/{name}/push`, `/containers/{id}/restart`): elsewhere they name other
/// things ("Push a notification").
pub const INSTANCE_TRANSITION_VERBS: &[&str] = &[
    "push",
    "pull",
    "tag",
    "restart",
    "reboot",
    "kill",
    // Stripe's `/payment_methods/{pm}/attach`: to one customer at most; Unit's
    // `/cards/{cardId}/report-lost`.
    "attach",
    // A subscription to one thing the path names (Okta's
    // `/subscriptions/{notificationType}/subscribe`): subscribed or not.
    "subscribe",
    "report",
    // Unit's `/received-payments/{paymentId}/reprocess`: that one payment, once; a check
    // payment's `return`.
    "reprocess",
    "process",
    "return",
    // The gift card the path names, redeemed once (Recurly's `/gift_cards/{redemption_code}/
    // redeem`); elsewhere a redemption spends a balance or points, and is made each time.
    "redeem",
    // The policy or template the path names, applied to what it governs (Box's
    // `/metadata_cascade_policies/{id}/apply`): applied again, it sets the same. (Only of a
    // policy, template, preset or profile: see `classify`.)
    "apply",
];

/// Transitions that switch a standing state on or off, which a repeat leaves as it is: only a
/// documented refusal of a repeat makes one worth reporting.
pub const TOGGLE_VERBS: &[&str] = &[
    // Undeleting: deleted or not (Formance's bucket `restore`, answered 204).
    "restore",
    "undelete",
    "enable",
    "disable",
    "activate",
    "deactivate",
    "pause",
    "resume",
    "lock",
    "unlock",
    "freeze",
    "unfreeze",
    "suspend",
    "unsuspend",
    "mute",
    "unmute",
    "star",
    "unstar",
    "pin",
    "unpin",
    "block",
    "unblock",
    "follow",
    "unfollow",
    "archive",
    "unarchive",
    "unpublish",
    // Expiring a password or a session: expired, and expired again.
    "expire",
    "opt",
    "subscribe",
    "unsubscribe",
];

/// Words that say an operation may create, even beside an update (`updateOrCreateInvoices`).
pub const CREATE_WORDS: &[&str] = &[
    "create", "creates", "insert", "inserts", "upsert", "upserts",
];

/// Verbs that, heading a summary, say the call makes something new whatever the operationId
/// says: "Request a Verification" (Vonage's `verifyRequest`), "Submit an application". Not
/// `initiate` ("Initiates resumption of a paused subscription") or `grant` (access to a set).
pub const STARTING_VERBS: &[&str] = &[
    "create", "request", "submit", "register", "enroll", "issue", "book", "reserve", "insert",
];

/// Verbs of a POST that only deletes or removes, which a repeat leaves as it is.
pub const DELETE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "unset",
    "clear",
    "purge",
    "erase",
    "destroy",
    "unlink",
    "detach",
    "unassign",
    // A revoked token or grant stays revoked (RFC 7009: revoking an invalid token answers 200).
    "revoke",
    // Taking a container off a network, a user off a device.
    "disconnect",
];

/// Verbs that deliver again an event delivered before, which keeps its id: a retry's copy is
/// deduped by receivers like any redelivery.
pub const REDELIVERY_VERBS: &[&str] = &["redeliver", "reflow", "replay"];

/// Verbs that send a message, which a retry sends again.
pub const SEND_VERBS: &[&str] = &[
    "send", "resend", "notify", "remind", "email", "deliver", "fire",
    // Mail: a forward or a reply is a new message sent (Microsoft Graph's `forward`,
    // `replyAll`).
    "forward", "reply",
];

/// Verbs that update the resource they are addressed to.
pub const UPDATE_VERBS: &[&str] = &[
    "update", "modify", "set", "change", "edit", "replace", "patch", "revise", "snooze",
    // A new name for one thing (Slack's `admin.emoji.rename`).
    "rename",
    // A position set again (Asana's "Reorder a custom field's enum" at `…/enum_options/insert`).
    "reorder",
    // Derived state computed again (Microsoft Graph's `discover` of a schema, a fork's `sync`).
    "refresh", "sync", "discover",
];

/// Nouns of sets whose members an `add` joins, where adding one twice leaves one (with
/// [`EXISTING_THING_NOUNS`]).
pub const SET_NOUNS: &[&str] = &[
    "label",
    "tag",
    "member",
    "role",
    "permission",
    "collaborator",
    "reviewer",
    "assignee",
    "subscriber",
    "follower",
    "group",
    "project",
    "team",
    "owner",
    "admin",
    "scope",
    "topic",
    "channel",
    // The people of a call or meeting (Slack's `calls.participants.add`).
    "participant",
    // Assignments of existing things ("Add organizations to the enterprise coding agent
    // policy", "Add organization assignments") are set nouns too: `EXISTING_THING_NOUNS`.
];

/// Words that name the thing they belong to, in an error's name or message: `DuplicateName`,
/// "The contact name … must be unique".
pub const NAMING_WORDS: &[&str] = &[
    "name", "key", "slug", "code", "email", "username", "login", "handle",
];

/// Set nouns that also name records an add may make ("Add a contact to an account" with a name
/// and a phone): an add of them joins a set only when its body names them by id.
pub const EXISTING_THING_NOUNS: &[&str] = &[
    "organization",
    "org",
    "user",
    "repository",
    "repo",
    "assignment",
    "contact",
];

// Relative changes (`heuristics`)

/// Last words that describe a change rather than measure it: `adjustAuthType`,
/// `adjustment_reason`, `addToCalendarAction`, `change_policy`, `adjustAuthorisationData`.
pub const DESCRIPTORS: &[&str] = &[
    "type",
    "kind",
    "mode",
    "reason",
    "status",
    "action",
    "setting",
    "settings",
    "option",
    "options",
    "behavior",
    "behaviour",
    "policy",
    "enabled",
    "flag",
    "id",
    "ids",
    "url",
    "date",
    "time",
    "at",
    "note",
    "notes",
    "description",
    // An opaque blob or a reference handed back (Adyen's `adjustAuthorisationData`).
    "data",
    "reference",
    "token",
];

/// First words of flags and predicates: `isMajorChange`, `hasChanges`, `allowAdjustments`.
pub const PREDICATES: &[&str] = &[
    "is", "has", "should", "can", "allow", "allows", "enable", "disable",
];

// Key carriers and money (`idempotency`)

/// Key-field names also used for the id of something else (the `requestId` of the sign-in a
/// detection belongs to, the `request_id` of an approval request): their description decides.
pub const AMBIGUOUS_FIELDS: &[&str] = &["requestid"];

/// Endings of the header names that carry a delivery's id: Standard Webhooks' `webhook-id`,
/// `X-Shopify-Webhook-Id`, `X-GitHub-Delivery`, `X-Event-Id`, `x-amz-sns-message-id`.
pub const DELIVERY_HEADER_ENDINGS: &[&str] = &[
    "webhookid",
    "eventid",
    "deliveryid",
    "delivery",
    "messageid",
];

/// Head nouns of things that price a later payment without moving money themselves.
pub const PRICING_NOUNS: &[&str] = &[
    "link",
    "links",
    "session",
    "sessions",
    "order",
    "orders",
    "quote",
    "quotes",
    "estimate",
    "estimates",
    "price",
    "prices",
    "plan",
    "plans",
    "product",
    "products",
    "coupon",
    "coupons",
    "cart",
    "carts",
    "basket",
    "baskets",
    // A payment source's amount is what it may later be charged (Stripe's `/v1/sources`).
    "source",
    "sources",
];

/// Verbs that undo or delete a record, which moves no money: `deleteBankTransfers`, "Cancel an
/// authorised payment" (a void of an uncaptured authorisation).
pub const UNDOING_VERBS: &[&str] = &[
    "delete", "remove", "cancel", "void", "archive", "dismiss", "reject", "decline",
];

/// Verbs that switch a standing state of a resource, which moves no money when done to one
/// (Unit's "Enable Recurring Payment", "Freeze Account"): the payments it makes are other calls.
pub const SWITCHING_VERBS: &[&str] = &[
    "enable",
    "disable",
    "pause",
    "freeze",
    "unfreeze",
    "lock",
    "unlock",
    "suspend",
    "unarchive",
];

/// Verbs that move money when they head a summary.
pub const MONEY_VERBS: &[&str] = &[
    "pay", "charge", "refund", "capture", "transfer", "withdraw", "deposit", "disburse", "remit",
];

/// Money verbs that settle the one resource a path names, once: a captured order is not
/// captured again, a paid invoice not paid again.
pub const ONE_SHOT_MONEY_VERBS: &[&str] = &[
    "capture",
    "pay",
    "authorize",
    "authorise",
    "confirm",
    "complete",
    "settle",
    "finalize",
];

/// Words that act once on the one payment a path names (`/payments/{psp}/reversals`, Unit's
/// `/check-payments/{id}/approve`), as its last segment; beside the transition verbs.
pub const ONE_PAYMENT_VERBS: &[&str] = &[
    // A reversal of one payment is of all of it (Adyen's reversals, Stripe's payout reverse).
    "reverse",
    "reversal",
    "reversals",
    // Approving or releasing one payment under review: it is paid once.
    "approve",
    "accept",
    "release",
    // Returning one check payment to its sender happens once.
    "return",
];

/// Money verbs that also move other things (a call, a repository, a screenshot): they move money
/// only when what they act on is money or holds it.
pub const AMBIGUOUS_MONEY_VERBS: &[&str] = &["transfer", "capture", "charge"];

/// What a money verb acts on when it moves money, beside the money words: "Charge a customer",
/// "Capture an authorization", "Transfer funds between accounts".
pub const MONEY_OBJECTS: &[&str] = &[
    "funds",
    "money",
    "amount",
    "balance",
    "invoice",
    "bill",
    "card",
    "customer",
    "account",
    "wallet",
    "authorization",
    "authorisation",
    "fee",
    "credit",
    "cash",
    "subscription",
    "order",
    "booking",
];

pub const PREPOSITIONS: &[&str] = &[
    "for", "to", "from", "of", "in", "on", "with", "by", "at", "into", "using", "via",
];

// Names of what a call did or makes (`classify`, `idempotency`, `missing-idempotency-key`)

/// A transition's noun and its verb: a collection of them under what they act on
/// (`/payments/{paymentPspReference}/reversals`) names the transition.
pub const TRANSITION_NOUNS: &[(&str, &str)] = &[
    ("reversal", "reverse"),
    ("cancellation", "cancel"),
    ("cancel", "cancel"),
    ("approval", "approve"),
    ("rejection", "reject"),
    ("activation", "activate"),
    ("deactivation", "deactivate"),
    ("suspension", "suspend"),
    ("termination", "terminate"),
    ("confirmation", "confirm"),
    ("revocation", "revoke"),
    ("void", "void"),
];

/// States an error code says a thing is already in (`conversation_already_closed`): of the
/// parent's state, not of a second one made.
pub const REACHED_STATES: &[&str] = &[
    "closed",
    "archived",
    "deleted",
    "cancelled",
    "canceled",
    "blocked",
    "completed",
    "finalized",
    "expired",
    "disabled",
    "inactive",
    "locked",
    "resolved",
    "revoked",
    "voided",
    "processed",
    "paid",
    "refunded",
    "captured",
    "sent",
    "submitted",
    "approved",
    "rejected",
    "suspended",
    "ended",
    "started",
    "running",
    "stopped",
    "open",
    "active",
    "enabled",
    "verified",
];

/// Path words of what a model does (`/audio/transcriptions`, `/images/variations`): where a
/// `file`, `image` or `items` beside a `model` is what the model reads.
pub const MODEL_WORK_NOUNS: &[&str] = &[
    "embedding",
    "moderation",
    "transcription",
    "translation",
    "completion",
    "generation",
    "variation",
    "edit",
    "speech",
    "extract",
    "inference",
];

/// Transition verbs that make something new unless the path names what they act on ("Start a
/// conversation" at `/conversations` starts one; `/pipelines/{id}/start` starts that one).
pub const NEW_UNLESS_NAMED_VERBS: &[&str] = &["start", "merge", "connect", "upgrade", "adopt"];

/// Verbs that make a link between things that exist: made twice, it is one link. (Not `add`,
/// which also fills carts, queues and playlists that hold a thing twice.)
pub const LINK_VERBS: &[&str] = &["link", "assign", "attach", "associate"];

/// Collections of links between existing things (Box's `/storage_policy_assignments`; a
/// permission or grant of a resource to a project or user; a connection between two apps).
pub const LINK_NOUNS: &[&str] = &[
    "assignment",
    // A member links a person or a thing to a group (Box's shield segment `members`).
    "member",
    "permission",
    "grant",
    "membership",
    "association",
    "restriction",
    "binding",
    "link",
    "relation",
    "relationship",
    "mapping",
    "connection",
];

/// Words that name money moving, in paths, operationIds and body fields: the default of the
/// configuration's `money_words`.
pub const MONEY_WORDS: &[&str] = &[
    "pay",
    "payment",
    "payments",
    "payout",
    "payouts",
    "charge",
    "charges",
    "refund",
    "refunds",
    "capture",
    "captures",
    "transfer",
    "transfers",
    "withdraw",
    "withdrawal",
    "withdrawals",
    "deposit",
    "deposits",
    "funds",
    "disbursement",
    "disbursements",
    "remittance",
    "remittances",
    "fee",
    "fees",
    "check",
    "checks",
    "cheque",
    "cheques",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A switch is judged only where a transition was found: a switch verb that is no
    /// transition verb would never be consulted.
    #[test]
    fn every_switch_is_a_transition() {
        for verb in TOGGLE_VERBS {
            assert!(
                TRANSITION_VERBS.contains(verb) || INSTANCE_TRANSITION_VERBS.contains(verb),
                "`{verb}` is a switch but no transition verb"
            );
        }
    }
}
