//! Kernel `.config` parsing: `make` output, distribution source configs (which
//! list only explicit choices), `/proc/config.gz` dumps and PTS-style files
//! without the `CONFIG_` prefix.

use crate::error::{Error, Result};
use flate2::read::GzDecoder;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The value of one option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `=y`
    Yes,
    /// `=m`
    Module,
    /// `=n` or `# CONFIG_X is not set`
    No,
    /// A quoted string (unescaped).
    Str(String),
    /// An integer or hex literal, kept as written.
    Num(String),
}

impl Value {
    /// True for `y`, `m`, and any string or number: the option is in effect.
    pub fn is_on(&self) -> bool {
        !matches!(self, Value::No)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Yes => f.write_str("y"),
            Value::Module => f.write_str("m"),
            Value::No => f.write_str("n"),
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::Num(n) => f.write_str(n),
        }
    }
}

/// Where an option's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Written in the file at this 1-based line.
    Line(u32),
    /// Not in the file; filled in because another option selects it.
    ImpliedBy(String),
}

/// One option's value and origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The option's value.
    pub value: Value,
    /// Where the value came from.
    pub origin: Origin,
}

/// A parsed kernel configuration: option names without the `CONFIG_` prefix.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KConfig {
    /// The file it was read from (for messages).
    pub path: PathBuf,
    /// Every option by name (without `CONFIG_`).
    pub options: BTreeMap<String, Entry>,
}

impl KConfig {
    /// Reads a config file; gzip (`/proc/config.gz`) is detected by its magic bytes.
    pub fn from_path(path: &Path) -> Result<KConfig> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            GzDecoder::new(&bytes[..])
                .read_to_end(&mut out)
                .map_err(|e| Error::input(path, None, format!("bad gzip data: {e}")))?;
            out
        } else {
            bytes
        };
        let text = String::from_utf8(text).map_err(|e| {
            let line = line_of_byte(e.as_bytes(), e.utf8_error().valid_up_to());
            Error::input(path, Some(line), "not a text file (invalid UTF-8)")
        })?;
        KConfig::parse(path, &text)
    }

    /// Parses config text; `path` is only used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<KConfig> {
        let mut options = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let line = raw.trim_end_matches('\r').trim();
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                if let Some(name) = not_set_name(comment) {
                    options.insert(
                        name.to_string(),
                        Entry {
                            value: Value::No,
                            origin: Origin::Line(line_no),
                        },
                    );
                }
                continue;
            }
            let (name, value) =
                parse_assignment(line).map_err(|msg| Error::input(path, Some(line_no), msg))?;
            options.insert(
                name,
                Entry {
                    value,
                    origin: Origin::Line(line_no),
                },
            );
        }
        if options.is_empty() {
            return Err(Error::input(
                path,
                None,
                "no kernel config options found (expected CONFIG_X=y or `# CONFIG_X is not set` lines)",
            ));
        }
        Ok(KConfig {
            path: path.to_path_buf(),
            options,
        })
    }

    /// The value of an option; an option missing from the file is off.
    pub fn get(&self, name: &str) -> Value {
        self.options
            .get(name)
            .map(|e| e.value.clone())
            .unwrap_or(Value::No)
    }

    /// The entry of an option, when the file (or an implication) gives one.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.options.get(name)
    }

    /// Renames options to their current spelling (`RETPOLINE` →
    /// `MITIGATION_RETPOLINE`), so that configs of different kernel versions
    /// compare. A current spelling present in the file wins over an old one.
    pub fn normalise_names(&mut self, renames: &BTreeMap<String, String>) {
        for (old, new) in renames {
            if let Some(entry) = self.options.remove(old) {
                self.options.entry(new.clone()).or_insert(entry);
            }
        }
    }

    /// Fills in options that an enabled option selects but the file leaves
    /// out (distribution source configs list only explicit choices).
    /// `implies` maps an option to `NAME` or `NAME=value` items.
    pub fn expand_implied(&mut self, implies: &BTreeMap<String, Vec<String>>) {
        // Two passes cover one level of chaining (PROVE_LOCKING → DEBUG_LOCK_ALLOC → LOCKDEP).
        for _ in 0..2 {
            let mut added = Vec::new();
            for (name, items) in implies {
                let on = self.options.get(name).is_some_and(|e| e.value.is_on());
                if !on {
                    continue;
                }
                for item in items {
                    let (target, value) = match item.split_once('=') {
                        Some((t, v)) => (t.trim(), parse_value(v.trim()).unwrap_or(Value::Yes)),
                        None => (item.trim(), Value::Yes),
                    };
                    if !self.options.contains_key(target) {
                        added.push((target.to_string(), value, name.clone()));
                    }
                }
            }
            if added.is_empty() {
                break;
            }
            for (target, value, by) in added {
                self.options.entry(target).or_insert(Entry {
                    value,
                    origin: Origin::ImpliedBy(by),
                });
            }
        }
    }
}

/// `CONFIG_X is not set` (with any trailing text, as in Fedora's files) → `X`.
fn not_set_name(comment: &str) -> Option<&str> {
    let rest = comment.trim_start().strip_prefix("CONFIG_")?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, tail) = rest.split_at(end);
    if !name.is_empty() && tail.trim_start().starts_with("is not set") {
        Some(name)
    } else {
        None
    }
}

/// `CONFIG_X=value` or `X=value` → (X, value).
fn parse_assignment(line: &str) -> std::result::Result<(String, Value), String> {
    let Some((lhs, rhs)) = line.split_once('=') else {
        return Err(format!(
            "malformed line `{}`: expected CONFIG_NAME=value or `# CONFIG_NAME is not set`",
            shorten(line)
        ));
    };
    let name = lhs.trim();
    let name = name.strip_prefix("CONFIG_").unwrap_or(name);
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("malformed option name `{}`", shorten(lhs.trim())));
    }
    let value = parse_value(rhs.trim()).ok_or_else(|| {
        format!(
            "malformed value `{}` for {name}: expected y, m, n, a number or a quoted string",
            shorten(rhs.trim())
        )
    })?;
    Ok((name.to_string(), value))
}

/// Parses `y`, `m`, `n`, `"string"`, decimal or hex numbers.
fn parse_value(v: &str) -> Option<Value> {
    match v {
        "y" => return Some(Value::Yes),
        "m" => return Some(Value::Module),
        "n" => return Some(Value::No),
        _ => {}
    }
    if let Some(inner) = v.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.push(chars.next()?),
                '"' => return None,
                c => out.push(c),
            }
        }
        return Some(Value::Str(out));
    }
    let digits = v.strip_prefix('-').unwrap_or(v);
    let is_num = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit())
    } else {
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
    };
    is_num.then(|| Value::Num(v.to_string()))
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        let head: String = s.chars().take(57).collect();
        format!("{head}...")
    } else {
        s.to_string()
    }
}

fn line_of_byte(bytes: &[u8], offset: usize) -> u32 {
    let n = bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<KConfig> {
        KConfig::parse(Path::new("t.config"), text)
    }

    #[test]
    fn parses_every_value_kind() {
        let c = parse(
            "#\n# Linux/x86 6.1 Kernel Configuration\n\nCONFIG_A=y\nCONFIG_B=m\nCONFIG_C=n\n\
             CONFIG_S=\"gcc-12 (Debian 12.2.0) \\\"q\\\"\"\nCONFIG_N=1000\nCONFIG_H=0x1f\nCONFIG_NEG=-1\n\
             # CONFIG_D is not set\n# CONFIG_E is not set # revisit later\r\n",
        )
        .unwrap();
        assert_eq!(c.get("A"), Value::Yes);
        assert_eq!(c.get("B"), Value::Module);
        assert_eq!(c.get("C"), Value::No);
        assert_eq!(
            c.get("S"),
            Value::Str("gcc-12 (Debian 12.2.0) \"q\"".into())
        );
        assert_eq!(c.get("N"), Value::Num("1000".into()));
        assert_eq!(c.get("H"), Value::Num("0x1f".into()));
        assert_eq!(c.get("NEG"), Value::Num("-1".into()));
        assert_eq!(c.entry("D").unwrap().value, Value::No);
        assert_eq!(c.entry("E").unwrap().origin, Origin::Line(12));
        assert_eq!(c.get("ABSENT"), Value::No);
        assert!(c.entry("ABSENT").is_none());
    }

    #[test]
    fn accepts_names_without_prefix() {
        let c = parse("PREEMPT_RT=y\nHZ=250\n").unwrap();
        assert_eq!(c.get("PREEMPT_RT"), Value::Yes);
        assert_eq!(c.get("HZ"), Value::Num("250".into()));
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let e = parse("CONFIG_A=y\nCONFIG_B y\n").unwrap_err().to_string();
        assert!(e.starts_with("t.config:2: malformed line"), "{e}");
        let e = parse("CONFIG_A=y\n\nCONFIG_B=maybe\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.config:3: malformed value `maybe`"), "{e}");
        let e = parse("CONFIG_A=\"open\n").unwrap_err().to_string();
        assert!(e.contains(":1: malformed value"), "{e}");
        let e = parse("CONFIG A-B=y\n").unwrap_err().to_string();
        assert!(e.contains(":1: malformed option name"), "{e}");
        let e = parse("# only comments\n\n").unwrap_err().to_string();
        assert!(e.contains("no kernel config options"), "{e}");
    }

    #[test]
    fn renames_and_implications() {
        let mut c = parse("CONFIG_RETPOLINE=y\nCONFIG_PROVE_LOCKING=y\nCONFIG_HZ_250=y\n").unwrap();
        let renames =
            BTreeMap::from([("RETPOLINE".to_string(), "MITIGATION_RETPOLINE".to_string())]);
        c.normalise_names(&renames);
        assert_eq!(c.get("MITIGATION_RETPOLINE"), Value::Yes);
        assert!(c.entry("RETPOLINE").is_none());
        let implies = BTreeMap::from([
            (
                "PROVE_LOCKING".to_string(),
                vec!["DEBUG_LOCK_ALLOC".to_string()],
            ),
            ("DEBUG_LOCK_ALLOC".to_string(), vec!["LOCKDEP".to_string()]),
            ("HZ_250".to_string(), vec!["HZ=250".to_string()]),
        ]);
        c.expand_implied(&implies);
        assert_eq!(
            c.entry("LOCKDEP").unwrap().origin,
            Origin::ImpliedBy("DEBUG_LOCK_ALLOC".into())
        );
        assert_eq!(c.get("HZ"), Value::Num("250".into()));
    }

    proptest::proptest! {
        /// Any text either parses or gives an input error naming the file: never a panic.
        #[test]
        fn never_panics(text in "(CONFIG_[A-Z_]{0,6}|# CONFIG_X is not set|[=\"ymn0-9x#\\ \n\r-]){0,40}") {
            match KConfig::parse(Path::new("p.config"), &text) {
                Ok(c) => proptest::prop_assert!(!c.options.is_empty()),
                Err(e) => proptest::prop_assert!(e.to_string().starts_with("p.config")),
            }
        }
    }

    #[test]
    fn reads_gzip_dumps() {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("config.gz");
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"CONFIG_KASAN=y\n").unwrap();
        std::fs::write(&p, enc.finish().unwrap()).unwrap();
        assert_eq!(KConfig::from_path(&p).unwrap().get("KASAN"), Value::Yes);
        std::fs::write(&p, [0x43, 0x4f, 0xff, 0xfe, 0x0a]).unwrap();
        let e = KConfig::from_path(&p).unwrap_err().to_string();
        assert!(e.contains(":1: not a text file"), "{e}");
    }
}
