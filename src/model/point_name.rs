//! The name a file gives the values it holds when nothing in it names a
//! variant: `history` names its points so, and `ingest --into` the variant
//! of an archive's part, and the two must agree for an archive to read back
//! as the files it was made from.

/// A file's name without `.gz` and without an extension that is a word of
/// 1 to 5 letters: `6.8-rc1.json` → `6.8-rc1`, `run.txt.gz` → `run`, while
/// `6.8` and `6.8.1` keep their version dots.
pub fn point_name(file_name: &str) -> String {
    let name = file_name.strip_suffix(".gz").unwrap_or(file_name);
    match name.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphabetic()) =>
        {
            stem.to_string()
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::point_name;

    #[test]
    fn only_a_word_is_an_extension() {
        assert_eq!(point_name("6.8-rc1.txt"), "6.8-rc1");
        assert_eq!(point_name("6.8"), "6.8");
        assert_eq!(point_name("6.8.1.json.gz"), "6.8.1");
        assert_eq!(point_name(".config"), ".config");
        assert_eq!(point_name("a.longext"), "a.longext");
    }
}
