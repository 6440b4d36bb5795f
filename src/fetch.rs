//! Remote `$ref` targets, fetched only with `--allow-remote-refs`. Without that flag nothing in
//! idemlint opens a network connection.
//!
//! Even when allowed, a reference may not reach a link-local address (169.254.0.0/16,
//! fe80::/10): that is where cloud metadata services hand out credentials, and a `$ref` in a
//! pull request must not be able to make CI fetch them. Redirects are followed here, one hop at
//! a time, so that each hop is checked the same way.

use std::io::Read;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;

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

/// The body at `url`, at most `limits.max_file_bytes` long.
pub fn fetch(url: &str, limits: &Limits) -> Result<Vec<u8>, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(concat!("idemlint/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut url = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        check_host(&url)?;
        let mut response = agent.get(&url).call().map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            let location = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| format!("HTTP {status} without a Location header"))?;
            url = join(&url, location).ok_or_else(|| format!("bad redirect to `{location}`"))?;
            if !is_http(&url) {
                return Err(format!("redirected to `{url}`, which is not http or https"));
            }
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
        return Ok(body);
    }
    Err(format!("more than {MAX_REDIRECTS} redirects"))
}

/// Refuses hosts that are, or resolve to, a link-local address.
fn check_host(url: &str) -> Result<(), String> {
    let after_scheme = &url[url.find("://").map_or(0, |i| i + 3)..];
    let authority = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => {
            let (host, rest) = v6.split_once(']').unwrap_or((v6, ""));
            (host, rest.strip_prefix(':'))
        }
        None => match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        },
    };
    let default_port = if url[..5].eq_ignore_ascii_case("https") {
        443
    } else {
        80
    };
    let port = port.and_then(|p| p.parse().ok()).unwrap_or(default_port);
    let addresses: Vec<IpAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        Err(_) => (host, port)
            .to_socket_addrs()
            .map_err(|e| format!("cannot resolve `{host}`: {e}"))?
            .map(|a| a.ip())
            .collect(),
    };
    for ip in addresses {
        if is_link_local(ip) {
            return Err(format!(
                "refused: `{host}` is a link-local address ({ip}), where cloud metadata services live"
            ));
        }
    }
    Ok(())
}

fn is_link_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_link_local() || v4.is_unspecified(),
        IpAddr::V6(v6) => {
            let mapped = v6.to_ipv4_mapped().is_some_and(|v4| v4.is_link_local());
            (v6.segments()[0] & 0xffc0) == 0xfe80 || v6.is_unspecified() || mapped
        }
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
            "http://0.0.0.0:8080/x",
        ] {
            let e = fetch(url, &Limits::default()).unwrap_err();
            assert!(e.starts_with("refused:"), "{url}: {e}");
        }
        assert!(check_host("http://127.0.0.1:9/x").is_ok());
    }
}
