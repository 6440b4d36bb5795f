//! "Did you mean": the closest of a set of known words to a mistyped one.

/// The candidate most like `word`, when one is close enough to be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word() {
        let ids = [
            "missing-idempotency-key",
            "unprotected-patch",
            "duplicate-key",
        ];
        assert_eq!(
            closest("missing-idempotency-keys", ids),
            Some("missing-idempotency-key")
        );
        assert_eq!(closest("unprotected_patch", ids), Some("unprotected-patch"));
        assert_eq!(closest("frobnicate", ids), None);
    }
}
