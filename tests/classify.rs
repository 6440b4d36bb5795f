//! The word-level classifier of what an operation does, over a table of real operation names
//! from many vendors' public specs: which POSTs only read or evaluate, which pass the request
//! through, and which change state. Each row is checked through the binary: an exempt operation
//! gets no `missing-idempotency-key` (or `unprotected-patch`), a state-changing one gets it.

use assert_cmd::Command;

/// One operation: method, path, operationId, summary, description, extra YAML lines of the
/// operation, whether its duplicates are harmless by its nature (exempt), and where the name
/// comes from.
struct Case {
    method: &'static str,
    path: &'static str,
    id: &'static str,
    summary: &'static str,
    description: &'static str,
    extra: &'static str,
    exempt: bool,
    from: &'static str,
}

const fn case(
    method: &'static str,
    path: &'static str,
    id: &'static str,
    summary: &'static str,
    exempt: bool,
    from: &'static str,
) -> Case {
    Case {
        method,
        path,
        id,
        summary,
        description: "",
        extra: "",
        exempt,
        from,
    }
}

const READS: bool = true;
const WRITES: bool = false;
/// Not reported for another reason than reading: what it creates is short-lived (a session),
/// made to be used once and left to expire, so a retry's duplicate is left unused.
const SHORT_LIVED: bool = true;
/// Not reported: it delivers an event that was delivered before, whose id receivers dedupe on.
const REDELIVERS: bool = true;

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Searches, lookups and batch reads. (`verify` is no read: it records a verification state
    // or runs a check that leaves a trace, and is reported as a transition.)
    case("post", "/v2/customers/search", "SearchCustomers", "SearchCustomers", READS, "Square"),
    case("post", "/fine_tuning/alpha/graders/run", "runGrader", "Run a grader", READS, "OpenAI: scores a sample, keeps nothing"),
    Case { description: "Creates a single-use login link for an Express account to access their Stripe dashboard.", ..case("post", "/v1/accounts/{account}/login_links", "PostAccountsAccountLoginLinks", "", SHORT_LIVED, "Stripe: a single-use link") },
    case("post", "/v1/accounts/{account}/persons", "PostAccountsAccountPersons", "", WRITES, "Stripe: a person"),
    Case { extra: "requestBody: {content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}}", ..case("post", "/builds/{build_id}/log", "updateSiteBuildLog", "", WRITES, "Netlify: appends a log line") },
    case("post", "/v1/redemptions", "redeemStackedDiscounts", "Redeem Stackable Discounts", WRITES, "Voucherify-shaped: spends a balance"),
    case("post", "/v2/catalog/batch-retrieve", "BatchRetrieveCatalogObjects", "", READS, "Square"),
    case("post", "/v2/orders/batch-retrieve", "BatchRetrieveOrders", "", READS, "Square"),
    case("post", "/v2/gift-cards/from-gan", "RetrieveGiftCardFromGAN", "", READS, "Square"),
    case("post", "/v2/inventory/counts/batch-retrieve", "BatchRetrieveInventoryCounts", "", READS, "Square"),
    case("post", "/oauth2/token/status", "RetrieveTokenStatus", "", READS, "Square"),
    case("post", "/v2/orders/calculate", "CalculateOrder", "", READS, "Square"),
    case("post", "/v2/bookings/availability/search", "SearchAvailability", "", READS, "Square"),
    case("post", "/v1/tax/calculations", "PostTaxCalculations", "", READS, "Stripe"),
    case("post", "/v1/customers/search", "PostCustomersSearch", "", READS, "Stripe-like"),
    case("post", "/paymentMethods", "post-paymentMethods", "Get a list of available payment methods", READS, "Adyen"),
    case("post", "/paymentMethods/balance", "post-paymentMethods-balance", "Get the balance of a gift card", READS, "Adyen"),
    case("post", "/cardDetails", "post-cardDetails", "Get the brands and other details of a card", READS, "Adyen"),
    case("post", "/validateShopperId", "post-validateShopperId", "Validates shopper Id", READS, "Adyen"),
    case("post", "/gift_cards/preview", "preview_gift_card", "Preview gift card", READS, "Recurly (201 declared)"),
    case("post", "/accounts/{account_id}/billing_info/verify", "verify_billing_info", "Verify an account's credit card billing information", WRITES, "Recurly: runs a card check, a transaction"),
    case("post", "/us_verifications", "us_verification", "Single Verify", READS, "Lob"),
    case("post", "/us_autocompletions", "autocompletion", "Autocomplete", READS, "Lob"),
    case("post", "/api/v1/users/{userId}/factors/{factorId}/verify", "verifyFactor", "Verify a factor", WRITES, "Okta: records the factor's state"),
    case("post", "/api/v1/domains/{domainId}/verify", "verifyDomain", "Verify a custom domain", WRITES, "Okta: marks the domain verified"),
    case("post", "/oauth2/token", "post_oauth2_token", "Request an access token", READS, "Box"),
    case("post", "/metadata_queries/execute_read", "post_metadata_queries_execute_read", "Query files/folders by metadata", READS, "Box"),
    case("post", "/responses/input_tokens", "Getinputtokencounts", "Get input token counts", READS, "OpenAI"),
    case("post", "/responses/input_tokens?beta=true", "Getinputtokencountsbeta", "Get input token counts", READS, "OpenAI (a query in the path key)"),
    case("post", "/moderations", "createModeration", "Classifies if text and/or image inputs are potentially harmful.", READS, "OpenAI: a model's verdict on its input, kept nowhere, whatever the id says"),
    case("post", "/embeddings", "createEmbedding", "Creates an embedding vector representing the input text.", READS, "OpenAI: computed and given back whole"),
    case("post", "/graphql", "", "", READS, "GraphQL"),
    case("post", "/oauth/introspect", "introspectToken", "Introspect a token", READS, "RFC 7662"),
    case("post", "/auth/login", "userLogin", "", READS, "login"),
    case("post", "/v1/reports", "runReportQuery", "", READS, "noun-first operationId"),
    // OData bound functions and actions.
    case("post", "/users/{user-id}/microsoft.graph.getMemberGroups", "users.user.getMemberGroups", "Invoke action getMemberGroups", READS, "Microsoft Graph"),
    case("post", "/users/{user-id}/microsoft.graph.checkMemberObjects", "users.user.checkMemberObjects", "Invoke action checkMemberObjects", READS, "Microsoft Graph"),
    case("post", "/me/microsoft.graph.findMeetingTimes", "me.findMeetingTimes", "Invoke action findMeetingTimes", READS, "Microsoft Graph"),
    case("post", "/me/calendar/microsoft.graph.getSchedule", "me.calendar.getSchedule", "Invoke action getSchedule", READS, "Microsoft Graph"),
    case("post", "/directoryObjects/microsoft.graph.getByIds", "directoryObjects.getByIds", "Invoke action getByIds", READS, "Microsoft Graph"),
    case("post", "/groups/microsoft.graph.validateProperties", "groups.validateProperties", "Invoke action validateProperties", READS, "Microsoft Graph"),
    case("post", "/reports/microsoft.graph.getEmailActivityCounts(period='{period}')", "reports.getEmailActivityCounts", "Invoke function getEmailActivityCounts", READS, "OData function"),
    case("post", "/me/microsoft.graph.sendMail", "me.sendMail", "Invoke action sendMail", WRITES, "Microsoft Graph"),
    case("post", "/users", "users.user.CreateUser", "Create User", WRITES, "Microsoft Graph"),
    case("post", "/deviceAppManagement/vppTokens", "deviceAppManagement.CreateVppTokens", "Create new navigation property to vppTokens", WRITES, "Microsoft Graph: camelCase create"),
    // Rendering, linting, evaluating, tests of a webhook.
    case("post", "/markdown", "markdown/render", "Render a Markdown document", READS, "GitHub"),
    case("post", "/markdown/raw", "markdown/render-raw", "Render a Markdown document in raw mode", READS, "GitHub"),
    case("post", "/repos/{owner}/{repo}/hooks/{hook_id}/tests", "repos/test-push-webhook", "Test the push repository webhook", READS, "GitHub"),
    case("post", "/repos/{owner}/{repo}/hooks/{hook_id}/pings", "repos/ping-webhook", "Ping a repository webhook", READS, "GitHub"),
    case("post", "/applications/{client_id}/token", "apps/check-token", "Check a token", READS, "GitHub"),
    case("post", "/projects/{id}/ci/lint", "postProjectsIdCiLint", "Validate the CI YAML configuration", READS, "GitLab"),
    case("post", "/api/v1/email-servers/{emailServerId}/test", "testEmailServer", "Test an SMTP server configuration", READS, "Okta"),
    case("post", "/v2/webhooks/subscriptions/{subscription_id}/test", "TestWebhookSubscription", "TestWebhookSubscription", READS, "Square"),
    case("post", "/flags/evaluate", "evaluateFlags", "", READS, "feature flags"),
    // Generated content that is not stored.
    Case { description: "Generate a name and body describing a release. The generated release notes are not saved anywhere.", ..case("post", "/repos/{owner}/{repo}/releases/generate-notes", "repos/generate-release-notes", "Generate release notes content for a release", READS, "GitHub") },
    case("post", "/uploads/presigned-url", "createPresignedUrl", "Create a presigned upload URL", READS, "presigned upload URLs"),
    // Domain reads worded as writes.
    case("post", "/funds-confirmations", "CreateFundsConfirmation", "Create Funds Confirmation", READS, "Open Banking UK"),
    case("post", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "createAuthorizationV1SelfSubjectAccessReview", "", READS, "Kubernetes"),
    case("post", "/apis/authentication.k8s.io/v1/tokenreviews", "createAuthenticationV1TokenReview", "", READS, "Kubernetes"),
    case("post", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "createAuthorizationV1SelfSubjectRulesReview", "", READS, "Kubernetes"),
    // Passthrough.
    case("post", "/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}", "connectPostNamespacedPodProxyWithPath", "", READS, "Kubernetes"),
    case("post", "/api/v1/namespaces/{namespace}/pods/{name}/exec", "connectPostNamespacedPodExec", "", READS, "Kubernetes"),
    case("post", "/api/v1/namespaces/{namespace}/pods/{name}/attach", "connectPostNamespacedPodAttach", "", READS, "Kubernetes"),
    case("post", "/api/v1/namespaces/{namespace}/pods/{name}/portforward", "connectPostNamespacedPodPortforward", "", READS, "Kubernetes"),
    case("patch", "/api/v1/namespaces/{namespace}/services/{name}/proxy/{path}", "connectPatchNamespacedServiceProxyWithPath", "", READS, "Kubernetes"),
    Case { extra: "x-kubernetes-action: connect", ..case("post", "/api/v1/nodes/{name}/proxy", "", "", READS, "Kubernetes extension") },
    // Creates and other writes, whatever else their names say.
    case("post", "/api/v1/namespaces/{namespace}/pods", "createNamespacedPod", "", WRITES, "Kubernetes"),
    case("post", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", "createAdmissionregistrationV1ValidatingWebhookConfiguration", "", WRITES, "Kubernetes: `validat` inside a noun"),
    case("post", "/2010-04-01/Accounts/{AccountSid}/OutgoingCallerIds.json", "CreateValidationRequest", "", WRITES, "Twilio: places a call"),
    case("post", "/v2/Services/{ServiceSid}/Verifications", "CreateVerification", "", WRITES, "Twilio: sends a code"),
    case("post", "/orgs/{org}/personal-access-token-requests/{pat_request_id}", "orgs/review-pat-grant-request", "Review a request to access organization resources with a fine-grained personal access token", WRITES, "GitHub: approves or denies"),
    case("post", "/orgs/{org}/personal-access-token-requests", "orgs/review-pat-grant-requests-in-bulk", "Review requests to access organization resources with fine-grained personal access tokens", WRITES, "GitHub"),
    case("post", "/applications/{client_id}/token/scoped", "apps/scope-token", "Create a scoped access token", WRITES, "GitHub"),
    case("post", "/repos/{owner}/{repo}/check-runs", "checks/create", "Create a check run", WRITES, "GitHub: check runs are stored"),
    case("post", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", "pulls/create-review", "Create a review for a pull request", WRITES, "GitHub: a review that is kept"),
    Case { extra: "responses: {'201': {description: Created}}", ..case("post", "/webhooks/lookups", "webhookLookup", "Create webhook lookup", WRITES, "a lookup that is created") },
    Case { extra: "responses: {'201': {description: Created}}", ..case("post", "/address-lookups", "addressLookups", "", WRITES, "a noun with 201") },
    case("post", "/v3/vault/payment-tokens", "createPaymentToken", "Create payment token for a given payment source", WRITES, "PayPal: camelCase create"),
    case("post", "/token_policies", "create_token_policies", "", WRITES, "snake_case create"),
    case("post", "/v1/tax/transactions/create_from_calculation", "PostTaxTransactionsCreateFromCalculation", "", WRITES, "Stripe: the segment creates"),
    Case { description: "<p>Creates a single-use token that represents a bank account's details.</p>", ..case("post", "/v1/tokens", "PostTokens", "", SHORT_LIVED, "Stripe: a single-use token (the noun `token` is no read), left unused by a retry") },
    case("post", "/v1/shipping_rates/{shipping_rate_token}", "PostShippingRatesShippingRateToken", "", WRITES, "Stripe: the parameter's word"),
    case("post", "/v1/payment_methods/{payment_method}/attach", "PostPaymentMethodsPaymentMethodAttach", "", WRITES, "Stripe: attach is no passthrough"),
    case("post", "/admin.users.session.invalidate", "admin_users_session_invalidate", "", WRITES, "Slack: `validate` inside `invalidate`"),
    case("post", "/chat.postMessage", "chat_postMessage", "", WRITES, "Slack"),
    case("post", "/api/v1/org/factors/yubikey_token/tokens", "uploadYubikeyOtpTokenSeed", "Upload a YubiKey OTP token seed", WRITES, "Okta"),
    case("post", "/security/api/v1/security-events", "publishSecurityEventTokens", "Publish a security event token", WRITES, "Okta"),
    case("post", "/v1/searches", "saveSearch", "Save a search", WRITES, "a search that is kept"),
    case("post", "/v1/validations", "createValidation", "", WRITES, "a validation that is kept"),
    case("post", "/payments/details", "post-payments-details", "Submit details for a payment", WRITES, "Adyen"),
    case("post", "/v2/payments", "CreatePayment", "CreatePayment", WRITES, "Square"),
    case("post", "/Invoices", "updateOrCreateInvoices", "Updates or creates one or more sales invoices", WRITES, "Xero"),
    case("post", "/api/v1/directories/{appInstanceId}/groups/{groupId}/query", "submitGroupAttributeQuery", "Submit a query for AD Group", WRITES, "Okta: submits a query job"),
    // A PATCH without a body makes one fixed change, which a retry makes again: this one sends one,
    // in the media types Kubernetes takes (a JSON Patch among them), of a shape not described.
    Case { extra: "requestBody: {content: {application/json-patch+json: {schema: {type: object}}, application/merge-patch+json: {schema: {type: object}}, application/strategic-merge-patch+json: {schema: {type: object}}, application/apply-patch+yaml: {schema: {type: object}}}}", ..case("patch", "/api/v1/namespaces/{namespace}/pods/{name}", "patchNamespacedPod", "", WRITES, "Kubernetes") },
    // A merge patch alone sets absolute values, which a retry sets again.
    Case { extra: "requestBody: {content: {application/merge-patch+json: {schema: {type: object}}}}", ..case("patch", "/api/v1/namespaces/{namespace}/pods/{name}/status", "patchNamespacedPodStatus", "", READS, "Kubernetes, merge patch only: absolute values") },
    // Short-lived creates: sessions, not reads, but a duplicate expires unused.
    Case { description: "<p>Creates a VerificationSession object.</p>", ..case("post", "/v1/identity/verification_sessions", "PostIdentityVerificationSessions", "", SHORT_LIVED, "Stripe: a noun phrase, not the verb; a session") },
    case("post", "/sessions", "post-sessions", "Create a payment session", SHORT_LIVED, "Adyen: a payment session"),
    Case { description: "Starts the forgot password flow. Generates a one-time token (OTT) that you can use to reset a user's password.", ..case("post", "/api/v1/users/{userId}/credentials/forgot_password", "forgotPassword", "Start forgot password flow", SHORT_LIVED, "Okta: a one-time token") },
    // Deletes by POST leave the same state when repeated; "the last" one does not.
    case("post", "/v2/merchants/custom-attributes/bulk-delete", "BulkDeleteMerchantCustomAttributes", "BulkDeleteMerchantCustomAttributes", READS, "Square"),
    case("post", "/tasks/{task_gid}/removeFollowers", "removeFollowerForTask", "Remove followers from a task", READS, "Asana"),
    case("post", "/reactions.remove", "reactions_remove", "", READS, "Slack"),
    Case { description: "Registers participants removed from a Call.", ..case("post", "/calls.participants.remove", "calls_participants_remove", "", READS, "Slack: registers the removal the method is named for") },
    Case { description: "Registers a new Call.", ..case("post", "/calls.add", "calls_add", "", WRITES, "Slack: a call") },
    case("post", "/oauth2/revoke", "RevokeToken", "RevokeToken", READS, "Square: a revoke is a delete (RFC 7009 answers 200 for a token already revoked)"),
    case("post", "/indexes/{id}/rebuild", "", "Delete and recreate the index", WRITES, "the second verb recreates"),
    case("post", "/metadata_taxonomies/{namespace}/{taxonomy_key}/levels:trim", "post_metadata_taxonomies_id_id_levels:trim", "Delete the last metadata taxonomy level", WRITES, "Box: each repeat deletes another level"),
    // Test modes: duplicates are test data.
    case("post", "/v1/test_helpers/treasury/received_credits", "PostTestHelpersTreasuryReceivedCredits", "", READS, "Stripe"),
    case("post", "/sandbox/atm-deposits", "simulateAtmDeposit", "Simulate an ATM deposit", READS, "Unit"),
    // More vendors. Reads, evaluations and checks worded as writes.
    case("post", "/apis/authentication.k8s.io/v1/selfsubjectreviews", "createAuthenticationV1SelfSubjectReview", "", READS, "Kubernetes: who the caller is"),
    case("post", "/servicePrincipals/{servicePrincipal-id}/synchronization/jobs/{synchronizationJob-id}/schema/microsoft.graph.parseExpression", "servicePrincipals.synchronization.jobs.schema.parseExpression", "Invoke action parseExpression", READS, "Microsoft Graph"),
    Case { description: "Validate flow JSON definition", ..case("post", "/v2/Flows/Validate", "UpdateFlowValidate", "", READS, "Twilio Studio: validates, whatever the id says") },
    case("post", "/containers/{id}/wait", "ContainerWait", "Wait for a container", READS, "Docker"),
    Case { description: "Run a query template on a ledger", ..case("post", "/v2/{ledger}/queries/{id}/run", "v2RunQuery", "Run a query template", READS, "Formance") },
    Case { description: "Validates the existing File. You need only supply the unique File identifier that was returned upon creation.", ..case("post", "/files/{fileID}/validate", "validateFile", "Validate File (Custom)", READS, "Moov") },
    case("post", "/markdown", "renderMarkdown", "Render a markdown document as HTML", READS, "Gitea"),
    case("post", "/api/v1/workflows/{namespace}/lint", "WorkflowService_LintWorkflow", "", READS, "Argo Workflows"),
    case("post", "/rest/api/3/search", "searchForIssuesUsingJqlPost", "Search for issues using JQL (POST)", READS, "Jira"),
    case("post", "/transactions/get", "transactionsGet", "Get transaction data", READS, "Plaid"),
    case("post", "/registries/ping", "pingRegistry", "Check status of the specified registry.", READS, "Harbor"),
    // A credential exchange reads, as `/oauth2/token` does.
    case("post", "/oauth/tickets/{ticket_id}/exchange", "exchangeTicket", "", READS, "Netlify"),
    // A stream passes the request through.
    Case { extra: "responses: {'101': {description: 'no error, hints proxy about hijacking'}, '200': {description: 'no error, no upgrade header found'}}", ..case("post", "/containers/{id}/attach", "ContainerAttach", "Attach to a container", READS, "Docker: 101 Switching Protocols") },
    // Deletes, revokes and redeliveries: a repeat leaves the same state.
    case("post", "/oauth2/revoke", "post_oauth2_revoke", "Revoke access token", READS, "Box: a revoke is a delete"),
    Case { description: "Purges cached content from Netlify's CDN. Supports purging by Cache-Tag.", ..case("post", "/purge", "purgeCache", "", READS, "Netlify") },
    case("post", "/containers/prune", "ContainerPrune", "Delete stopped containers", READS, "Docker"),
    case("post", "/item/remove", "itemRemove", "Remove an Item", READS, "Plaid"),
    case("post", "/workflows/events/{eventId}/reflow", "", "Reflow by event", REDELIVERS, "Checkout.com"),
    // A test mode.
    case("post", "/v1/simulate/authorize", "simulateAuthorization", "Simulate authorization", READS, "Lithic"),
    // Creates, sends and runs, whatever the path's parameters.
    case("post", "/repos/{owner}/{repo}/issues", "repoCreateIssue", "Create an issue. If using deadline only the date will be taken into account, and time of day ignored.", WRITES, "Gitea"),
    case("post", "/repos/{owner}/{repo}/issues", "issues/create", "Create an issue", WRITES, "GitHub"),
    case("post", "/guilds", "create_guild", "", WRITES, "Discord"),
    case("post", "/channels/{channel_id}/messages", "create_message", "", WRITES, "Discord: sends"),
    case("post", "/api/v1/workflows/{namespace}", "WorkflowService_CreateWorkflow", "", WRITES, "Argo Workflows: the path's last parameter is no name of the new item"),
    case("post", "/api/v1/workflows/{namespace}/submit", "WorkflowService_SubmitWorkflow", "", WRITES, "Argo Workflows: runs a workflow"),
    Case { description: "Create a new outgoing call to phones, SIP-enabled endpoints or Twilio Client connections", ..case("post", "/2010-04-01/Accounts/{AccountSid}/Calls.json", "CreateCall", "", WRITES, "Twilio: places a call") },
    Case { description: "Triggers a new Execution for the Flow", ..case("post", "/v2/Flows/{FlowSid}/Executions", "CreateExecution", "", WRITES, "Twilio Studio") },
    case("post", "/users", "user_CreateUser", "Create User", WRITES, "Microsoft Graph"),
    case("post", "/containers/create", "ContainerCreate", "Create a container", WRITES, "Docker"),
    case("post", "/containers/{id}/exec", "ContainerExec", "Create an exec instance", WRITES, "Docker"),
    case("post", "/projects", "createProject", "Create a new project.", WRITES, "Harbor"),
    case("post", "/v1/cards", "createCard", "Create card", WRITES, "Lithic"),
    case("post", "/sites", "createSite", "", WRITES, "Netlify"),
    Case { description: "Runs a build for a site. The build will be scheduled to run at the first opportunity, but it might not start immediately if insufficient account build capacity is available.", ..case("post", "/sites/{site_id}/builds", "createSiteBuild", "", WRITES, "Netlify: runs a build") },
    Case { description: "Posts a new comment on the file.", ..case("post", "/v1/files/{file_key}/comments", "postComment", "Add a comment to a file", WRITES, "Figma") },
    case("post", "/v2/{ledger}/transactions", "v2CreateTransaction", "Create a new transaction to a ledger", WRITES, "Formance"),
    Case { description: "Create a new File object from either the plaintext or JSON representation.", ..case("post", "/files/{fileID}", "createFile", "Create File", WRITES, "Moov") },
    case("post", "/rest/api/3/issue", "createIssue", "Create issue", WRITES, "Jira"),
    case("post", "/users/{userId}/meetings", "meetingCreate", "Create a meeting", WRITES, "Zoom"),
    case("post", "/incidents", "createIncident", "Create an Incident", WRITES, "PagerDuty"),
    case("post", "/v3/mail/send", "POST_mail-send", "v3 Mail Send", WRITES, "SendGrid: sends"),
    case("post", "/transfer/create", "transferCreate", "Create a transfer", WRITES, "Plaid: moves money"),
    Case { description: "Use Verify request to generate and send a PIN to your user", ..case("post", "/{format}", "verifyRequest", "Request a Verification", WRITES, "Vonage: sends a PIN") },
];

#[test]
fn the_table_has_enough_names_of_both_classes() {
    let reads = CASES.iter().filter(|c| c.exempt).count();
    let writes = CASES.len() - reads;
    assert!(
        CASES.len() >= 140 && reads >= 60 && writes >= 60,
        "{} cases: {reads} exempt, {writes} not",
        CASES.len()
    );
}

/// The spec of the table: each case under a path of its own (`/c<n>` first, which leaves its
/// last segment as it is).
fn spec() -> String {
    let mut s = String::from("openapi: 3.0.3\ninfo: {title: Names, version: '1'}\npaths:\n");
    for (n, c) in CASES.iter().enumerate() {
        let path = format!("/c{n}{}", c.path);
        let quote = |t: &str| t.replace('\'', "''");
        s.push_str(&format!("  '{}':\n    {}:\n", quote(&path), c.method));
        if !c.id.is_empty() {
            s.push_str(&format!("      operationId: '{}'\n", quote(c.id)));
        }
        if !c.summary.is_empty() {
            s.push_str(&format!("      summary: '{}'\n", quote(c.summary)));
        }
        if !c.description.is_empty() {
            s.push_str(&format!("      description: '{}'\n", quote(c.description)));
        }
        if !c.extra.is_empty() {
            s.push_str(&format!("      {}\n", c.extra));
        }
        if !c.extra.starts_with("responses:") {
            s.push_str("      responses: {'200': {description: OK}}\n");
        }
    }
    s
}

#[test]
fn every_name_of_the_table_is_classified_as_its_api_means_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("names.yaml"), spec()).unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "check",
            "names.yaml",
            "--format",
            "json",
            "--select",
            "missing-idempotency-key,unprotected-patch",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["errors"], serde_json::json!([]), "{report:#}");
    let flagged: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["operation"]["path"].as_str().unwrap().to_string())
        .collect();
    let mut wrong = Vec::new();
    for (n, c) in CASES.iter().enumerate() {
        let path = format!("/c{n}{}", c.path);
        let is_flagged = flagged.contains(&path);
        if is_flagged == c.exempt {
            wrong.push(format!(
                "{} {} ({}, {}): expected {}",
                c.method.to_uppercase(),
                c.path,
                c.id,
                c.from,
                if c.exempt { "exempt" } else { "flagged" }
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
