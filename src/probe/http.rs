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

use std::cell::Cell;

use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, DefaultConnector, NextTimeout, Transport,
};

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
    /// The port connected to (the scheme's when the URL gives none).
    pub port: u16,
    /// `https`.
    pub tls: bool,
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
        // The host, and after it nothing or `:PORT`.
        let (host, port) = match authority.strip_prefix('[') {
            Some(v6) => {
                let (h, rest) = v6
                    .split_once(']')
                    .ok_or_else(|| format!("--base-url `{url}`: unclosed `[`"))?;
                match rest {
                    "" => (h, None),
                    rest => (h, Some(rest.strip_prefix(':').unwrap_or("?"))),
                }
            }
            None => match authority.split_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (authority, None),
            },
        };
        if host.is_empty() {
            return Err(format!("--base-url `{url}` has no host"));
        }
        if let Some(p) = port
            && !(p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok())
        {
            return Err(format!(
                "--base-url `{url}`: `{authority}` is not HOST or HOST:PORT (a port is a number \
                 up to 65535)"
            ));
        }
        if url.parse::<ureq::http::Uri>().is_err()
            || !host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':'))
        {
            return Err(format!("--base-url `{url}` is not a valid URL"));
        }
        // (`LOCALHOST.` is `localhost`: case and the root's dot do not matter.)
        let host = host.to_ascii_lowercase().trim_end_matches('.').to_string();
        let tls = scheme.eq_ignore_ascii_case("https");
        let port = port
            .and_then(|p| p.parse().ok())
            .unwrap_or(if tls { 443 } else { 80 });
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
            port,
            tls,
        })
    }

    /// One TCP connection to the base URL's host before any request (its addresses judged as
    /// the client judges them). Failure means the server cannot be reached: nothing was sent.
    /// (An `https` server's TLS handshake is made by the first request, and its failure ends
    /// the run the same way: see [`failure`].)
    pub fn reachable(&self, timeout: Duration) -> Result<(), String> {
        let addresses = resolve(&self.host, self.port, self.allowed).map_err(|e| e.to_string())?;
        let mut last = String::from("no address");
        for a in &addresses {
            match std::net::TcpStream::connect_timeout(a, timeout) {
                Ok(_) => {
                    last.clear();
                    break;
                }
                Err(e) => last = format!("{a}: {e}"),
            }
        }
        if !last.is_empty() {
            return Err(last);
        }
        Ok(())
    }
}

/// The addresses of `host`: `localhost` is the loopback addresses without a lookup; another
/// name is looked up, and must resolve to loopback addresses only unless `any`.
fn resolve(host: &str, port: u16, any: bool) -> Result<Vec<std::net::SocketAddr>, ureq::Error> {
    use std::net::{SocketAddr, ToSocketAddrs};
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase();
    if !any && !is_loopback_name(&host) {
        return Err(refused(&host));
    }
    if host == "localhost" {
        return Ok(vec![
            SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
        ]);
    }
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::from((ip, port))]);
    }
    let addresses: Vec<SocketAddr> = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| {
            ureq::Error::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("cannot resolve `{host}`: {e}"),
            ))
        })?
        .collect();
    if addresses.is_empty() {
        return Err(ureq::Error::HostNotFound);
    }
    if !any && addresses.iter().any(|a| !is_loopback(a.ip())) {
        return Err(refused(&host));
    }
    Ok(addresses)
}

/// Whether `host`, as written in a URL, is a loopback address or `localhost`.
fn is_loopback_name(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
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
            // A fresh connection for every request: a request written onto a kept-alive
            // connection the server has since closed would break, and a broken connection
            // after the request was written is judged as the server's doing.
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            DefaultConnector::default().chain(Watch),
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
        WRITTEN.set(false);
        let mut builder = ureq::http::Request::builder()
            .method(request.method)
            .uri(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let built = builder
            .body(request.body.clone().unwrap_or_default())
            .map_err(|e| Failure::Unreachable(format!("the request cannot be made: {e}")))?;
        let mut response = self
            .agent
            .run(built)
            .map_err(|e| failure(e, WRITTEN.get()))?;
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
            .map_err(|e| failure(ureq::Error::from(e), true))?;
        Ok(Response {
            status,
            headers,
            body,
        })
    }
}

/// What an error of ureq's means: a timeout anywhere is a [`Failure::Timeout`]; any other error
/// before a request was written (no address, refused, a TLS handshake that fails, a certificate
/// not trusted, a request that cannot be made) means the server was not reached, nothing of it
/// judged; after, the connection broke while the server had the request: its behaviour.
fn failure(e: ureq::Error, written: bool) -> Failure {
    if is_timeout(&e) {
        return Failure::Timeout;
    }
    let text = match &e {
        ureq::Error::Io(io) => io.to_string(),
        e => e.to_string(),
    };
    if written {
        Failure::Broken(text)
    } else {
        Failure::Unreachable(text)
    }
}

/// Whether an error, or one it wraps, is a timeout.
fn is_timeout(e: &ureq::Error) -> bool {
    let mut source: Option<&dyn std::error::Error> = match e {
        ureq::Error::Timeout(_) => return true,
        // (An io::Error's `source` skips what it wraps: start from the io::Error itself.)
        ureq::Error::Io(io) => Some(io),
        e => Some(e),
    };
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            ) {
                return true;
            }
            if let Some(inner) = io.get_ref() {
                let inner: &dyn std::error::Error = inner;
                if inner
                    .downcast_ref::<ureq::Error>()
                    .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)))
                {
                    return true;
                }
            }
        }
        if s.downcast_ref::<ureq::Error>()
            .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)))
        {
            return true;
        }
        let text = s.to_string().to_ascii_lowercase();
        if text.contains("timed out") || text.contains("timeout") {
            return true;
        }
        source = s.source();
    }
    false
}

thread_local! {
    /// Whether the request this thread is sending has been written, all of it, to a connection.
    static WRITTEN: Cell<bool> = const { Cell::new(false) };
}

/// The last connector of the client's chain: its transport notes when a request was written
/// (TLS handshakes happen in the connectors before it, so a failed one is "not written").
#[derive(Debug)]
struct Watch;

impl Connector<Box<dyn Transport>> for Watch {
    type Out = Watched;

    fn connect(
        &self,
        _: &ConnectionDetails,
        chained: Option<Box<dyn Transport>>,
    ) -> Result<Option<Watched>, ureq::Error> {
        Ok(chained.map(Watched))
    }
}

#[derive(Debug)]
struct Watched(Box<dyn Transport>);

impl Transport for Watched {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.0.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.0.transmit_output(amount, timeout)?;
        WRITTEN.set(true);
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.0.await_input(timeout)
    }

    fn is_open(&mut self) -> bool {
        self.0.is_open()
    }

    fn is_tls(&self) -> bool {
        self.0.is_tls()
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
        let tls = uri.scheme_str() == Some("https");
        let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
        let _ = (config, timeout);
        let mut out = self.empty();
        for a in resolve(host, port, self.any)?.into_iter().take(16) {
            out.push(a);
        }
        Ok(out)
    }
}

fn refused(host: &str) -> ureq::Error {
    ureq::Error::Io(std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!("`{host}` is not a loopback host, and was not named with --allow-host"),
    ))
}

/// Why a header cannot be sent as it is (a name that is not a token, a value with a control
/// character or a character outside ASCII), if it cannot.
pub fn unsendable_header(name: &str, value: &str) -> Option<String> {
    if ureq::http::HeaderName::from_bytes(name.as_bytes()).is_err() {
        return Some(format!(
            "`{name}` is not a header name (a token: no spaces nor separators)"
        ));
    }
    if !value
        .bytes()
        .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
    {
        return Some(format!(
            "the value of `{name}` has a character a header cannot carry (a control character or \
             one outside ASCII)"
        ));
    }
    None
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
    // (Names as APIs spell them: `X-Authorization`, `api_key`, `X-Api-Key`, `apikey`.)
    matches!(n.as_str(), "cookie" | "set-cookie")
        || n.contains("authorization")
        || n.ends_with("key")
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

/// A body as evidence shows it: text, cut at [`EVIDENCE_BODY`] bytes, its control characters
/// escaped (`\x1B`; line breaks and tabs kept) so a server's bytes cannot drive the terminal
/// the report is read in; a body that is not text (not UTF-8, or with a NUL) as
/// `<binary, N bytes>`.
pub fn body_text(body: &[u8]) -> String {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        // (A body cut at the read limit may end inside a character.)
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&body[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return format!("<binary, {} bytes>", body.len()),
    };
    if text.contains('\0') {
        return format!("<binary, {} bytes>", body.len());
    }
    let mut cut = text.len().min(EVIDENCE_BODY);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let shown = escaped(&text[..cut]);
    if cut == body.len() {
        shown
    } else {
        format!("{shown}… ({} bytes in all)", body.len())
    }
}

/// `text` with its control characters (C0, DEL, C1) but line feeds and tabs written `\xNN`
/// (`\u{NNNN}` beyond a byte).
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            let n = u32::from(c);
            if n <= 0xFF {
                out.push_str(&format!("\\x{n:02X}"));
            } else {
                out.push_str(&format!("\\u{{{n:04X}}}"));
            }
        } else {
            out.push(c);
        }
    }
    out
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
                    out.push_str(&format!(
                        "  {name}: {}\n",
                        escaped(shown(name, value, key_header))
                    ));
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
        // `LOCALHOST.` is `localhost`: the resolver takes it, without a lookup.
        assert_eq!(
            Target::parse("https://LOCALHOST.", &[]).unwrap().host,
            "localhost"
        );
        assert!(
            resolve("LOCALHOST.", 80, false).unwrap()[0]
                .ip()
                .is_loopback()
        );
        // An authority that is not HOST or HOST:PORT.
        for url in [
            "http://127.0.0.1:18081:99",
            "http://127.0.0.1:http",
            "http://127.0.0.1:70000",
            "http://[::1]x",
            "http://loc alhost",
        ] {
            assert!(Target::parse(url, &[]).is_err(), "{url}");
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
    fn errors_before_a_request_is_written_mean_unreachable_and_timeouts_are_timeouts() {
        let io = |kind| ureq::Error::Io(std::io::Error::new(kind, "x"));
        assert!(matches!(
            failure(io(std::io::ErrorKind::InvalidData), false),
            Failure::Unreachable(_)
        ));
        assert!(matches!(
            failure(io(std::io::ErrorKind::ConnectionReset), true),
            Failure::Broken(_)
        ));
        assert!(matches!(
            failure(io(std::io::ErrorKind::TimedOut), false),
            Failure::Timeout
        ));
        // A timeout inside an io::Error, as a body read reports it.
        let wrapped = std::io::Error::other(ureq::Error::Timeout(ureq::Timeout::Global));
        assert!(matches!(
            failure(ureq::Error::from(wrapped), true),
            Failure::Timeout
        ));
        assert!(unsendable_header("Bad Name", "x").is_some());
        assert!(unsendable_header("X-City", "Montr\u{e9}al").is_some());
        assert!(unsendable_header("X-City", "Montreal").is_none());
    }

    #[test]
    fn secrets_are_masked_but_not_the_probes_key() {
        for name in [
            "Authorization",
            "Cookie",
            "X-Api-Key",
            "X-Auth-Token",
            "Client-Secret",
            "api_key",
            "apikey",
            "X-Authorization",
            "Proxy-Authorization",
        ] {
            assert!(is_secret(name, Some("Idempotency-Key")), "{name}");
        }
        assert!(!is_secret("Idempotency-Key", Some("Idempotency-Key")));
        assert!(!is_secret("Content-Type", None));
    }

    #[test]
    fn control_characters_are_escaped_and_binary_bodies_named() {
        assert_eq!(
            body_text(b"{\"a\": \"\x1b[2J\x1b]0;owned\x07\"}\r\n\tok\n"),
            "{\"a\": \"\\x1B[2J\\x1B]0;owned\\x07\"}\\x0D\n\tok\n"
        );
        assert_eq!(body_text("\u{9b}31m".as_bytes()), "\\x9B31m");
        let binary: Vec<u8> = (0..=255u8).cycle().take(2048).collect();
        assert_eq!(body_text(&binary), "<binary, 2048 bytes>");
        assert_eq!(body_text(b"a\0b"), "<binary, 3 bytes>");
    }

    #[test]
    fn bodies_are_cut_at_one_kilobyte() {
        let long = "é".repeat(2000);
        let shown = body_text(long.as_bytes());
        assert!(shown.len() < 1100, "{}", shown.len());
        assert!(shown.ends_with("(4000 bytes in all)"));
    }
}
