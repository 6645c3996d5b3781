//! Study files: one TOML file that says what to compare and how to report
//! it, so that a patch review can be reproduced with one command.
//!
//! ```toml
//! title = "hackbench with a CPU hog"
//! baseline = "baseline"
//!
//! [[variants]]
//! name = "baseline"
//! inputs = ["../data/hackbench/baseline"]
//! kconfig = "../data/kconfig/base.config"      # optional
//!
//! [[documents]]                                # several variants in one file
//! path = "../data/lkml/mail.txt"
//! lines = "20-30"                              # optional: one table only
//! benchmark = "futex-wake (first run)"         # optional rename
//! variants = { patched = "patched-debug" }     # column -> variant
//!
//! [analysis]
//! alpha = 0.05
//! threshold = "2%"
//!
//! [[metrics]]
//! name = "time"
//! direction = "lower"
//!
//! [output]
//! formats = ["html", "pdf", "md", "txt", "json"]
//! ```
//!
//! Paths are relative to the study file. Unknown keys are errors naming the
//! key and its line.

use crate::analysis::{Correction, Settings, TestChoice};
use crate::error::{Error, Result};
use crate::model::Direction;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A parsed study file, paths still as written.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Study {
    /// Short name (output folder); default: the file stem.
    #[serde(default)]
    pub name: Option<String>,
    /// Title shown at the top of the reports.
    #[serde(default)]
    pub title: Option<String>,
    /// Text shown under the title.
    #[serde(default)]
    pub description: Option<String>,
    /// Name of the baseline variant; default: the first variant.
    #[serde(default)]
    pub baseline: Option<String>,
    /// The variants, each with its own inputs.
    #[serde(default)]
    pub variants: Vec<VariantSpec>,
    /// Inputs holding several variants at once (e-mail tables).
    #[serde(default)]
    pub documents: Vec<DocumentSpec>,
    /// Settings of the analysis.
    #[serde(default)]
    pub analysis: AnalysisSpec,
    /// Directions, units and display names of metrics.
    #[serde(default)]
    pub metrics: Vec<MetricSpec>,
    /// User-defined extractors (TOML files, or folders of them) for
    /// harnesses no built-in importer reads; see `examples/extractors/`.
    #[serde(default)]
    pub extractors: Vec<String>,
    /// Where the reports go and in which formats.
    #[serde(default)]
    pub output: OutputSpec,
    /// Where the file was read from (set by [`Study::load`]).
    #[serde(skip)]
    pub path: PathBuf,
}

/// One variant: a build or system, its inputs and its configuration.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// The variant's name.
    pub name: String,
    /// A description shown in the reports.
    #[serde(default)]
    pub description: Option<String>,
    /// Files, folders or glob patterns.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// Force an input format (see `patchperf formats`).
    #[serde(default)]
    pub format: Option<String>,
    /// Kernel `.config` of this variant.
    #[serde(default)]
    pub kconfig: Option<String>,
    /// Environment snapshot (`patchperf snapshot`) of this variant.
    #[serde(default)]
    pub environment: Option<String>,
}

/// A file holding several variants (a table in an e-mail).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DocumentSpec {
    /// The file (relative to the study file).
    pub path: String,
    /// Force an input format (see `patchperf formats`).
    #[serde(default)]
    pub format: Option<String>,
    /// Only values from these lines (`20-30`, `41`), e.g. one of two tables.
    #[serde(default)]
    pub lines: Option<String>,
    /// Replace the benchmark name of every value read (keeps two tables of
    /// the same benchmark apart).
    #[serde(default)]
    pub benchmark: Option<String>,
    /// Column or block name → variant name. Values of columns not listed
    /// keep their name.
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// Drop values of these columns or blocks (after nothing else).
    #[serde(default)]
    pub skip: Vec<String>,
}

/// Analysis settings; anything left out takes the default of `compare`.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AnalysisSpec {
    /// Significance level.
    #[serde(default)]
    pub alpha: Option<f64>,
    /// `"2%"` or `2.0`.
    #[serde(default)]
    pub threshold: Option<Threshold>,
    /// How p-values are corrected for many comparisons.
    #[serde(default)]
    pub correction: Option<Correction>,
    /// Which test to run on raw samples.
    #[serde(default)]
    pub test: Option<TestChoice>,
    /// n to assume for tables that do not state it.
    #[serde(default)]
    pub assume_n: Option<u64>,
    /// Seed of the bootstrap.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Bootstrap resamples.
    #[serde(default)]
    pub resamples: Option<usize>,
    /// A `--filter` expression.
    #[serde(default)]
    pub filter: Option<String>,
}

/// A threshold given as a number or a string with `%`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Threshold {
    /// A number.
    Number(f64),
    /// A string, such as `2%`.
    Text(String),
}

impl Threshold {
    /// The threshold in percent.
    pub fn percent(&self) -> Result<f64> {
        match self {
            Threshold::Number(v) => Ok(*v),
            Threshold::Text(s) => s.trim().trim_end_matches('%').trim().parse().map_err(|_| {
                Error::Usage(format!("threshold `{s}` is not a percentage like \"2%\""))
            }),
        }
    }
}

/// Overrides for one metric.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct MetricSpec {
    /// The metric name as read (`time`, `tps`).
    pub name: String,
    /// `lower` or `higher` is better.
    #[serde(default)]
    pub direction: Option<String>,
    /// Unit for values read without one.
    #[serde(default)]
    pub unit: Option<String>,
    /// Name shown in the report.
    #[serde(default)]
    pub display: Option<String>,
}

/// Where and what to write.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Output folder (relative to the study file); default
    /// `reports/<name>` in the current directory.
    #[serde(default)]
    pub dir: Option<String>,
    /// Any of html, pdf, md, txt, json; default all.
    #[serde(default)]
    pub formats: Vec<String>,
    /// A folder of templates overriding the built-in ones.
    #[serde(default)]
    pub templates: Option<String>,
}

impl Study {
    /// Reads and validates a study file.
    pub fn load(path: &Path) -> Result<Study> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Study::parse(path, &text)
    }

    /// Parses study text; `path` names it in errors and anchors relative paths.
    pub fn parse(path: &Path, text: &str) -> Result<Study> {
        let mut s: Study = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|sp| text[..sp.start.min(text.len())].matches('\n').count() as u32 + 1);
            Error::input(path, line, e.message().trim().to_string())
        })?;
        s.path = path.to_path_buf();
        s.validate(text)?;
        Ok(s)
    }

    fn validate(&self, text: &str) -> Result<()> {
        let line_of = |needle: &str| -> Option<u32> {
            text.lines()
                .position(|l| l.contains(needle))
                .map(|i| i as u32 + 1)
        };
        if let Some(n) = &self.name {
            if n.trim().is_empty() || n.contains(['/', '\\']) || n.starts_with('.') {
                return Err(Error::input(
                    &self.path,
                    line_of("name"),
                    format!("name = \"{n}\" must be a plain folder name (no `/`, no leading `.`)"),
                ));
            }
        }
        if self.variants.is_empty() && self.documents.is_empty() {
            return Err(Error::input(
                &self.path,
                None,
                "the study has no [[variants]] with inputs and no [[documents]]: nothing to compare",
            ));
        }
        let mut seen = Vec::new();
        for v in &self.variants {
            if v.name.trim().is_empty() {
                return Err(Error::input(
                    &self.path,
                    line_of("name"),
                    "a variant has an empty name",
                ));
            }
            if seen.contains(&v.name) {
                return Err(Error::input(
                    &self.path,
                    line_of(&format!("\"{}\"", v.name)),
                    format!("variant `{}` is defined twice", v.name),
                ));
            }
            seen.push(v.name.clone());
        }
        for m in &self.metrics {
            if let Some(d) = &m.direction {
                d.parse::<Direction>().map_err(|e| {
                    Error::input(&self.path, line_of(d), format!("metric `{}`: {e}", m.name))
                })?;
            }
        }
        for d in &self.documents {
            if let Some(l) = &d.lines {
                parse_lines(l).map_err(|e| Error::input(&self.path, line_of(l), e))?;
            }
        }
        if let Some(t) = &self.analysis.threshold {
            t.percent()
                .map_err(|e| Error::input(&self.path, line_of("threshold"), e.to_string()))?;
        }
        for f in &self.output.formats {
            f.parse::<crate::output::OutputFormat>()
                .map_err(|e| Error::input(&self.path, line_of(f), e.to_string()))?;
        }
        Ok(())
    }

    /// The study's short name: `name`, or the file stem.
    pub fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            self.path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| "study".into())
        })
    }

    /// The study's `output.dir`, resolved, when it has one. A study file
    /// may come from anyone (a pull request in CI): its output folder must
    /// lie inside the study's own folder or the working directory, and
    /// anywhere else needs the user's own `--out`.
    pub fn output_dir(&self) -> Result<Option<PathBuf>> {
        let Some(d) = &self.output.dir else {
            return Ok(None);
        };
        let out = self.resolve(d);
        let target = absolute(&out);
        let study_dir = absolute(self.path.parent().unwrap_or(Path::new("")));
        let cwd = absolute(Path::new("."));
        let within = |base: &Path| target.starts_with(base) && target != *base;
        if within(&study_dir) || within(&cwd) {
            return Ok(Some(out));
        }
        Err(Error::input(
            self.path.display().to_string(),
            None,
            format!(
                "output.dir `{d}` lies outside the study's folder and the current directory; \
                 write there only with an explicit --out {}",
                out.display()
            ),
        ))
    }

    /// A path from the study, resolved against the study file's folder.
    pub fn resolve(&self, p: &str) -> PathBuf {
        let pb = PathBuf::from(p);
        if pb.is_absolute() {
            return pb;
        }
        let base = self.path.parent().unwrap_or(Path::new(""));
        let joined = base.join(pb);
        // Keep it tidy for display: `examples/../data/x` → `data/x`.
        normalize(&joined)
    }

    /// The extractor files the study names, folders expanded to the
    /// `*.toml` files they hold (sorted, so detection order is stable).
    pub fn extractor_paths(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for e in &self.extractors {
            let p = self.resolve(e);
            if p.is_dir() {
                let mut inside: Vec<PathBuf> = std::fs::read_dir(&p)
                    .map_err(|err| Error::io(&p, err))?
                    .filter_map(|d| d.ok().map(|d| d.path()))
                    .filter(|f| f.extension().is_some_and(|x| x == "toml"))
                    .collect();
                inside.sort();
                out.extend(inside);
            } else {
                out.push(p);
            }
        }
        Ok(out)
    }

    /// Analysis settings from the study.
    pub fn settings(&self) -> Result<Settings> {
        let d = Settings::default();
        let a = &self.analysis;
        Ok(Settings {
            baseline: self
                .baseline
                .clone()
                .or_else(|| self.variants.first().map(|v| v.name.clone())),
            alpha: a.alpha.unwrap_or(d.alpha),
            threshold_pct: match &a.threshold {
                Some(t) => t.percent()?,
                None => d.threshold_pct,
            },
            correction: a.correction.unwrap_or(d.correction),
            test: a.test.unwrap_or(d.test),
            assume_n: a.assume_n.or(d.assume_n),
            seed: a.seed.unwrap_or(d.seed),
            resamples: a.resamples.unwrap_or(d.resamples),
            keep_run_order: d.keep_run_order,
            directions: self
                .metrics
                .iter()
                .filter_map(|m| {
                    let d = m.direction.as_deref()?.parse::<Direction>().ok()?;
                    Some((m.name.clone(), d))
                })
                .collect(),
        })
    }
}

/// Parses `20-30` or `41` into an inclusive line range.
pub fn parse_lines(s: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("lines = \"{s}\" is not a line range like \"20-30\"");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s.trim(), s.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a == 0 || b < a {
        return Err(bad());
    }
    Ok((a, b))
}

/// Removes `.` and `name/..` pairs without touching the file system.
/// `p` made absolute against the working directory, then [`normalize`]d.
fn absolute(p: &Path) -> PathBuf {
    match std::env::current_dir() {
        Ok(cwd) if p.is_relative() => normalize(&cwd.join(p)),
        _ => normalize(p),
    }
}

fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    let pb: PathBuf = out.iter().collect();
    if pb.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        pb
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_names_key_and_line() {
        let text =
            "title = \"x\"\n\n[[variants]]\nname = \"a\"\ninputs = [\"a.txt\"]\ncolour = \"red\"\n";
        let e = Study::parse(Path::new("s.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.toml:6"), "{e}");
        assert!(e.contains("colour"), "{e}");
        let e = Study::parse(Path::new("s.toml"), "titel = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.toml:1") && e.contains("titel"), "{e}");
    }

    #[test]
    fn settings_and_paths() {
        let text = "baseline = \"b\"\n[[variants]]\nname = \"b\"\ninputs = [\"../data/b\"]\n[analysis]\nthreshold = \"3%\"\nassume_n = 5\n[output]\nformats = [\"html\", \"txt\"]\n";
        let s = Study::parse(Path::new("examples/x.toml"), text).unwrap();
        let st = s.settings().unwrap();
        assert_eq!(st.threshold_pct, 3.0);
        assert_eq!(st.assume_n, Some(5));
        assert_eq!(st.baseline.as_deref(), Some("b"));
        assert_eq!(s.resolve("../data/b"), PathBuf::from("data/b"));
        assert_eq!(s.name(), "x");
        assert_eq!(parse_lines("20-30").unwrap(), (20, 30));
        assert!(parse_lines("30-20").is_err());
        let e = Study::parse(
            Path::new("s.toml"),
            "name = \"../x\"\n[[variants]]\nname = \"b\"\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("s.toml:1"), "{e}");
        let bad = "[[variants]]\nname = \"b\"\n[output]\nformats = [\"docx\"]\n";
        assert!(Study::parse(Path::new("s.toml"), bad)
            .unwrap_err()
            .to_string()
            .contains("docx"));
    }
}
