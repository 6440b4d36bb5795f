//! `file:` URIs and the paths they name. Clients percent-encode paths in their own ways (VS Code
//! encodes `:` and `@`, Neovim does not); a path is decoded from whatever the client sent, and a
//! URI for a file the client never named is encoded here.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The path a `file:` URI names, or `None` for any other scheme.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///p` has an empty authority; `file://localhost/p` names this machine too.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let decoded = crate::resolve::percent_decode(path)?;
    let path = PathBuf::from(decoded);
    path.is_absolute().then_some(path)
}

/// The `file:` URI of an absolute path.
pub fn from_path(path: &Path) -> Option<Uri> {
    let mut s = String::from("file://");
    for b in path.to_str()?.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=@".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_with_spaces_and_non_ascii_survive_the_round_trip() {
        let path = Path::new("/work/my specs/café#1.yaml");
        let uri = from_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///work/my%20specs/caf%C3%A9%231.yaml");
        assert_eq!(to_path(&uri).unwrap(), path);
        let vscode = Uri::from_str("file:///c%3A/api.yaml").unwrap();
        assert_eq!(to_path(&vscode).unwrap(), Path::new("/c:/api.yaml"));
        assert!(to_path(&Uri::from_str("untitled:Untitled-1").unwrap()).is_none());
    }
}
