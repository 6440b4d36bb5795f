//! Remote `$ref` targets, fetched only with `--allow-remote-refs`. Without that flag nothing in
//! idemlint opens a network connection.
//!
//! Even when allowed, a reference may not reach a link-local address (169.254.0.0/16,
//! fe80::/10) or another cloud metadata address: that is where cloud metadata services hand out
//! credentials, and a `$ref` in a pull request must not be able to make CI fetch them. The
//! check runs inside ureq's resolver, on the very addresses the connection is made to, so a
//! DNS answer that changes between a check and the connection ("DNS rebinding") cannot slip
//! through. Redirects are followed here, one hop at a time, so that each hop is checked the
//! same way.

use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use crate::limits::Limits;

/// Redirect hops followed before giving up.
const MAX_REDIRECTS: usize = 5;

/// How long one fetch may take in all.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Whether `s` starts with an `http:` or `https:` scheme.
pub fn is_http(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// A fetched document: the URL it was finally served from (after redirects; its own relative
/// references resolve against it) and its bytes.
pub struct Fetched {
    pub url: String,
    pub bytes: Vec<u8>,
}

/// The body at `url`, at most `limits.max_file_bytes` long.
pub fn fetch(url: &str, limits: &Limits) -> Result<Fetched, String> {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(concat!("idemlint/", env!("CARGO_PKG_VERSION")))
        .build();
    let agent = ureq::Agent::with_parts(
        config,
        ureq::unversioned::transport::DefaultConnector::default(),
        GuardedResolver,
    );
    let mut url = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let mut response = agent.get(&url).call().map_err(|e| match e {
            // The resolver's refusal, as it was worded.
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::PermissionDenied => {
                io.to_string()
            }
            e => e.to_string(),
        })?;
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            let location = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| format!("HTTP {status} without a Location header"))?;
            if has_scheme(location) && !is_http(location) {
                return Err(format!(
                    "redirected to `{location}`, which is not http or https"
                ));
            }
            url = join(&url, location).ok_or_else(|| format!("bad redirect to `{location}`"))?;
            continue;
        }
        if status != 200 {
            return Err(format!("HTTP {status}"));
        }
        let mut body = Vec::new();
        response
            .body_mut()
            .as_reader()
            .take(limits.max_file_bytes + 1)
            .read_to_end(&mut body)
            .map_err(|e| e.to_string())?;
        if let Some(message) = limits.too_large(body.len() as u64) {
            return Err(message.replace("file is", "the response is at least"));
        }
        return Ok(Fetched { url, bytes: body });
    }
    Err(format!("more than {MAX_REDIRECTS} redirects"))
}

fn refusal(host: &str, ip: IpAddr) -> String {
    format!(
        "refused: `{host}` is a link-local or metadata address ({ip}), where cloud metadata \
         services live"
    )
}

/// Whether `s` starts with a URI scheme (`file:`, `ftp:`).
fn has_scheme(s: &str) -> bool {
    s.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// Link-local and cloud metadata addresses, in every spelling an IPv6 address can give an
/// IPv4 one (mapped, compatible, NAT64).
fn is_forbidden(ip: IpAddr) -> bool {
    fn v4(ip: Ipv4Addr) -> bool {
        ip.is_link_local()
            || ip.is_unspecified()
            // Alibaba Cloud's metadata service and Azure's WireServer.
            || ip == Ipv4Addr::new(100, 100, 100, 200)
            || ip == Ipv4Addr::new(168, 63, 129, 16)
    }
    match ip {
        IpAddr::V4(ip) => v4(ip),
        IpAddr::V6(ip) => {
            let s = ip.segments();
            let embedded = |hi: u16, lo: u16| {
                Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8)
            };
            let compatible = s[..6] == [0; 6] && !ip.is_loopback() && !ip.is_unspecified();
            let nat64 = s[..6] == [0x64, 0xff9b, 0, 0, 0, 0];
            (s[0] & 0xffc0) == 0xfe80
                || ip.is_unspecified()
                // AWS's IPv6 metadata endpoint.
                || ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)
                || ip.to_ipv4_mapped().is_some_and(v4)
                || ((compatible || nat64) && v4(embedded(s[6], s[7])))
        }
    }
}

/// ureq's resolver, refusing forbidden addresses among those a connection would use.
#[derive(Debug)]
struct GuardedResolver;

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addresses = DefaultResolver::default().resolve(uri, config, timeout)?;
        if let Some(bad) = addresses.iter().find(|a| is_forbidden(a.ip())) {
            let host = uri.host().unwrap_or_default();
            return Err(ureq::Error::Io(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                refusal(host, bad.ip()),
            )));
        }
        Ok(addresses)
    }
}

/// `reference` resolved against the absolute http(s) URL `base` (RFC 3986 §5.2, without the
/// rare cases a `$ref` never uses).
pub fn join(base: &str, reference: &str) -> Option<String> {
    if is_http(reference) {
        return Some(reference.to_string());
    }
    let scheme_end = base.find("://")?;
    let scheme = &base[..scheme_end];
    if let Some(rest) = reference.strip_prefix("//") {
        return Some(format!("{scheme}://{rest}"));
    }
    let after = scheme_end + 3;
    let path_start = base[after..]
        .find(['/', '?', '#'])
        .map_or(base.len(), |i| after + i);
    let origin = &base[..path_start];
    let base_path = base[path_start..].split(['?', '#']).next().unwrap_or("");
    let (ref_path, suffix) = match reference.find(['?', '#']) {
        Some(i) => (&reference[..i], &reference[i..]),
        None => (reference, ""),
    };
    let merged = if ref_path.starts_with('/') {
        ref_path.to_string()
    } else if ref_path.is_empty() {
        base_path.to_string()
    } else {
        let dir = base_path.rfind('/').map_or("/", |i| &base_path[..=i]);
        format!("{dir}{ref_path}")
    };
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = merged.split('/').collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let path = out.join("/");
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    Some(format!("{origin}{path}{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_join_like_rfc_3986() {
        let base = "https://api.example.com/specs/v1/openapi.yaml";
        for (reference, want) in [
            (
                "common.yaml",
                "https://api.example.com/specs/v1/common.yaml",
            ),
            (
                "./common.yaml",
                "https://api.example.com/specs/v1/common.yaml",
            ),
            (
                "../shared/e.yaml",
                "https://api.example.com/specs/shared/e.yaml",
            ),
            ("../../../../x.yaml", "https://api.example.com/x.yaml"),
            ("/root.yaml", "https://api.example.com/root.yaml"),
            ("//cdn.example.com/a.yaml", "https://cdn.example.com/a.yaml"),
            ("http://other/b.yaml", "http://other/b.yaml"),
            ("p.yaml?v=2", "https://api.example.com/specs/v1/p.yaml?v=2"),
        ] {
            assert_eq!(join(base, reference).as_deref(), Some(want), "{reference}");
        }
    }

    #[test]
    fn link_local_hosts_are_refused_before_any_connection() {
        for url in [
            "http://169.254.169.254/latest/meta-data",
            "http://[fe80::1]/x",
            "http://[::ffff:169.254.169.254]/x",
            "http://[::169.254.169.254]/x",
            "http://[64:ff9b::a9fe:a9fe]/x",
            "http://[fd00:ec2::254]/x",
            "http://100.100.100.200/x",
            "http://0.0.0.0:8080/x",
            "http://2852039166/x",
        ] {
            let e = fetch(url, &Limits::default()).err().unwrap();
            assert!(e.starts_with("refused:"), "{url}: {e}");
        }
        for ok in ["127.0.0.1", "::1", "10.0.0.1", "2001:db8::1"] {
            assert!(!is_forbidden(ok.parse().unwrap()), "{ok}");
        }
    }
}
