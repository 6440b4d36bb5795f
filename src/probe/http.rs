//! The probe's HTTP client, and what keeps it safe: requests go only to the `--base-url`'s host,
//! which must be a loopback host unless named with `--allow-host` (judged from the URL, before
//! any lookup or connection, and again on the addresses a name resolves to); redirects are never
//! followed (a 3xx is reported as it is); no proxy from the environment is used; every request
//! has a timeout, and the run a budget of requests.

use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

/// The largest response body read; the rest is not read.
const MAX_BODY: u64 = 1 << 20;

/// Where a probe may send requests: the base URL, checked.
#[derive(Debug, Clone)]
pub struct Target {
    /// `http://127.0.0.1:8080/api`, without a trailing slash.
    pub base: String,
    pub host: String,
    /// Whether the host was named with `--allow-host` (else it is a loopback host).
    pub allowed: bool,
}

impl Target {
    /// The base URL, if its host may be probed: a loopback address (`127.0.0.0/8`, `::1`),
    /// `localhost`, or a host named in `allow`. Only the URL's text is looked at: nothing is
    /// resolved or connected to.
    pub fn parse(url: &str, allow: &[String]) -> Result<Target, String> {
        let url = url.trim();
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| format!("--base-url `{url}` is not an http:// or https:// URL"))?;
        if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
            return Err(format!(
                "--base-url `{url}` is not an http:// or https:// URL"
            ));
        }
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(end);
        if path.contains(['?', '#']) {
            return Err(format!(
                "--base-url `{url}` has a query or fragment; give the server's root"
            ));
        }
        if authority.contains('@') {
            return Err(format!(
                "--base-url `{url}` has user information before its host; give credentials \
                 with --header"
            ));
        }
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6
                .split_once(']')
                .map(|(h, _)| h)
                .ok_or_else(|| format!("--base-url `{url}`: unclosed `[`"))?,
            None => authority.split(':').next().unwrap_or(""),
        };
        if host.is_empty() {
            return Err(format!("--base-url `{url}` has no host"));
        }
        let host = host.to_ascii_lowercase();
        let allowed = allow
            .iter()
            .any(|a| a.trim().trim_end_matches('.').eq_ignore_ascii_case(&host));
        if !allowed && !is_loopback_name(&host) {
            return Err(format!(
                "refusing to probe `{host}`: it is not a loopback host (127.0.0.0/8, ::1, \
                 localhost), and a probe sends real writes; name it with --allow-host {host} to \
                 probe it. Nothing was looked up or sent."
            ));
        }
        Ok(Target {
            base: format!("{scheme}://{authority}{}", path.trim_end_matches('/')),
            host,
            allowed,
        })
    }
}

/// Whether `host`, as written in a URL, is a loopback address or `localhost`.
fn is_loopback_name(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    host == "localhost"
        || host
            .parse::<Ipv4Addr>()
            .is_ok_and(|ip| ip.octets()[0] == 127)
        || host.parse::<Ipv6Addr>().is_ok_and(|ip| ip.is_loopback())
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// A request as sent (and shown in evidence).
#[derive(Debug, Clone)]
pub struct Request {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

/// A response as received.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }

    pub fn success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a request got no response.
#[derive(Debug, Clone)]
pub enum Failure {
    /// The run's request budget is spent: the request was not sent.
    Budget,
    /// No connection could be made (refused, no such host): the server is not there.
    Unreachable(String),
    /// No response within the timeout.
    Timeout,
    /// The connection broke (reset, a malformed response).
    Broken(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Budget => f.write_str("not sent: the request budget is spent"),
            Failure::Unreachable(e) => write!(f, "no connection: {e}"),
            Failure::Timeout => f.write_str("no response within the timeout"),
            Failure::Broken(e) => write!(f, "no response: {e}"),
        }
    }
}

/// One request and what came of it.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub request: Request,
    pub response: Result<Response, Failure>,
}

impl Exchange {
    pub fn ok(&self) -> Option<&Response> {
        self.response.as_ref().ok()
    }
}

/// The client of one probe run.
pub struct Client {
    agent: ureq::Agent,
    budget: usize,
    sent: AtomicUsize,
}

impl Client {
    pub fn new(target: &Target, timeout: Duration, budget: usize) -> Client {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .max_redirects(0)
            .http_status_as_error(false)
            // Not the environment's HTTP(S)_PROXY: requests go to the base URL's host only.
            .proxy(None)
            .user_agent(concat!("idemlint-probe/", env!("CARGO_PKG_VERSION")))
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            ureq::unversioned::transport::DefaultConnector::default(),
            LoopbackResolver {
                any: target.allowed,
            },
        );
        Client {
            agent,
            budget,
            sent: AtomicUsize::new(0),
        }
    }

    /// Requests sent so far.
    pub fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }

    /// Takes `n` requests from the budget, all or none.
    fn take(&self, n: usize) -> bool {
        self.sent
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |sent| {
                (sent + n <= self.budget).then_some(sent + n)
            })
            .is_ok()
    }

    pub fn send(&self, request: Request) -> Exchange {
        if !self.take(1) {
            return Exchange {
                request,
                response: Err(Failure::Budget),
            };
        }
        self.sent_now(request)
    }

    /// The requests sent at the same moment, each on its own thread, released together by a
    /// barrier once every thread is ready.
    pub fn send_together(&self, requests: Vec<Request>) -> Vec<Exchange> {
        if !self.take(requests.len()) {
            return requests
                .into_iter()
                .map(|request| Exchange {
                    request,
                    response: Err(Failure::Budget),
                })
                .collect();
        }
        let barrier = Arc::new(Barrier::new(requests.len()));
        std::thread::scope(|s| {
            let handles: Vec<_> = requests
                .into_iter()
                .map(|request| {
                    let barrier = Arc::clone(&barrier);
                    s.spawn(move || {
                        barrier.wait();
                        self.sent_now(request)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a probe request thread panicked"))
                .collect()
        })
    }

    fn sent_now(&self, request: Request) -> Exchange {
        let response = self.call(&request);
        Exchange { request, response }
    }

    fn call(&self, request: &Request) -> Result<Response, Failure> {
        let mut builder = ureq::http::Request::builder()
            .method(request.method)
            .uri(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let built = builder
            .body(request.body.clone().unwrap_or_default())
            .map_err(|e| Failure::Broken(e.to_string()))?;
        let mut response = self.agent.run(built).map_err(failure)?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let mut body = Vec::new();
        response
            .body_mut()
            .as_reader()
            .take(MAX_BODY)
            .read_to_end(&mut body)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::TimedOut => Failure::Timeout,
                _ => Failure::Broken(e.to_string()),
            })?;
        Ok(Response {
            status,
            headers,
            body,
        })
    }
}

fn failure(e: ureq::Error) -> Failure {
    use std::io::ErrorKind;
    match e {
        ureq::Error::Timeout(_) => Failure::Timeout,
        // (A TLS handshake that fails, a certificate not trusted: no conversation with the
        // server at all, not an answer of its.)
        ureq::Error::HostNotFound
        | ureq::Error::ConnectionFailed
        | ureq::Error::Tls(_)
        | ureq::Error::Rustls(_)
        | ureq::Error::BadUri(_) => Failure::Unreachable(e.to_string()),
        ureq::Error::Io(io)
            if matches!(
                io.kind(),
                ErrorKind::ConnectionRefused
                    | ErrorKind::PermissionDenied
                    | ErrorKind::AddrNotAvailable
                    | ErrorKind::NotFound
            ) =>
        {
            Failure::Unreachable(io.to_string())
        }
        ureq::Error::Io(io) if io.kind() == ErrorKind::TimedOut => Failure::Timeout,
        e => Failure::Broken(e.to_string()),
    }
}

/// ureq's resolver: a host not named with `--allow-host` must resolve to loopback addresses
/// only (`localhost` in a strange `/etc/hosts` is refused).
#[derive(Debug)]
struct LoopbackResolver {
    any: bool,
}

impl Resolver for LoopbackResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let host = uri.host().unwrap_or_default();
        if !self.any && !is_loopback_name(host.trim_start_matches('[').trim_end_matches(']')) {
            return Err(refused(host));
        }
        let addresses = DefaultResolver::default().resolve(uri, config, timeout)?;
        if !self.any && addresses.iter().any(|a| !is_loopback(a.ip())) {
            return Err(refused(host));
        }
        Ok(addresses)
    }
}

fn refused(host: &str) -> ureq::Error {
    ureq::Error::Io(std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!("`{host}` is not a loopback host, and was not named with --allow-host"),
    ))
}

/// How many bytes of a body evidence shows.
pub const EVIDENCE_BODY: usize = 1024;

/// Whether a header's value is kept out of evidence: credentials and anything named like one.
/// The probe's own idempotency key is shown (it is a fresh UUID, and the evidence needs it).
pub fn is_secret(name: &str, key_header: Option<&str>) -> bool {
    if key_header.is_some_and(|k| k.eq_ignore_ascii_case(name)) {
        return false;
    }
    let n = name.to_ascii_lowercase();
    matches!(
        n.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie"
    ) || n.ends_with("-key")
        || n.ends_with("apikey")
        || [
            "token",
            "secret",
            "password",
            "signature",
            "session",
            "credential",
        ]
        .iter()
        .any(|w| n.contains(w))
}

/// A body as evidence shows it: text, cut at [`EVIDENCE_BODY`] bytes.
pub fn body_text(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if text.len() <= EVIDENCE_BODY {
        return text.into_owned();
    }
    let mut cut = EVIDENCE_BODY;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..cut], body.len())
}

/// `exchanges` as the evidence of a finding: each request and its response, secrets masked,
/// bodies cut.
pub fn evidence(exchanges: &[&Exchange], key_header: Option<&str>) -> String {
    let mut out = String::new();
    for (i, x) in exchanges.iter().enumerate() {
        let n = i + 1;
        // (The concurrent check's requests are one request N times: shown once.)
        let same = exchanges[..i]
            .iter()
            .position(|y| same_request(&y.request, &x.request));
        if let Some(j) = same {
            out.push_str(&format!("request {n}: the same as request {}\n", j + 1));
        } else {
            out.push_str(&format!(
                "request {n}: {} {}\n",
                x.request.method, x.request.url
            ));
            for (name, value) in &x.request.headers {
                out.push_str(&format!("  {name}: {}\n", shown(name, value, key_header)));
            }
            if let Some(body) = &x.request.body {
                out.push_str(&format!("  {}\n", indented(&body_text(body))));
            }
        }
        match &x.response {
            Ok(r) => {
                out.push_str(&format!("response {n}: {}\n", r.status));
                for (name, value) in &r.headers {
                    if matches!(
                        name.to_ascii_lowercase().as_str(),
                        "date"
                            | "connection"
                            | "keep-alive"
                            | "transfer-encoding"
                            | "content-length"
                    ) {
                        continue;
                    }
                    out.push_str(&format!("  {name}: {}\n", shown(name, value, key_header)));
                }
                if !r.body.is_empty() {
                    out.push_str(&format!("  {}\n", indented(&body_text(&r.body))));
                }
            }
            Err(e) => out.push_str(&format!("response {n}: {e}\n")),
        }
    }
    out.trim_end().to_string()
}

fn same_request(a: &Request, b: &Request) -> bool {
    a.method == b.method && a.url == b.url && a.headers == b.headers && a.body == b.body
}

/// A body's lines after the first indented as its first is.
fn indented(text: &str) -> String {
    text.trim_end().replace('\n', "\n  ")
}

fn shown<'v>(name: &str, value: &'v str, key_header: Option<&str>) -> &'v str {
    if is_secret(name, key_header) {
        "****"
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_allowed_and_others_need_allow_host() {
        for url in [
            "http://127.0.0.1:8080",
            "http://127.1.2.3/api/",
            "http://[::1]:9000",
            "http://localhost:3000/v1",
            "https://LOCALHOST.",
        ] {
            assert!(Target::parse(url, &[]).is_ok(), "{url}");
        }
        for url in [
            "http://api.invalid",
            "http://10.0.0.1",
            "http://[::ffff:10.0.0.1]",
            "http://127.0.0.1.nip.io",
            "http://user@127.0.0.1",
            "ftp://127.0.0.1",
            "127.0.0.1:8080",
        ] {
            assert!(Target::parse(url, &[]).is_err(), "{url}");
        }
        let t = Target::parse(
            "http://staging.invalid:8443/api/",
            &["staging.invalid".into()],
        )
        .unwrap();
        assert!(t.allowed);
        assert_eq!(t.base, "http://staging.invalid:8443/api");
    }

    #[test]
    fn secrets_are_masked_but_not_the_probes_key() {
        for name in [
            "Authorization",
            "Cookie",
            "X-Api-Key",
            "X-Auth-Token",
            "Client-Secret",
        ] {
            assert!(is_secret(name, Some("Idempotency-Key")), "{name}");
        }
        assert!(!is_secret("Idempotency-Key", Some("Idempotency-Key")));
        assert!(!is_secret("Content-Type", None));
    }

    #[test]
    fn bodies_are_cut_at_one_kilobyte() {
        let long = "é".repeat(2000);
        let shown = body_text(long.as_bytes());
        assert!(shown.len() < 1100, "{}", shown.len());
        assert!(shown.ends_with("(4000 bytes in all)"));
    }
}
