//! The results of an analysis, shared with `checks` and `report`.

use super::thinned::Thinned;
use crate::model::{Direction, Finding};
use serde::{Deserialize, Serialize};

/// Which two-sample test produced a p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestKind {
    /// Mann-Whitney U on the two sides' samples.
    #[serde(rename = "mann-whitney")]
    MannWhitney,
    /// Welch's t on the two sides' samples.
    #[serde(rename = "welch")]
    Welch,
    /// Welch's t from stated mean, stddev and n.
    #[serde(rename = "welch-summary")]
    WelchSummary,
    /// No test was possible (no variance information or n unknown).
    #[serde(rename = "none")]
    None,
}

pub use crate::stats::summary::Center;

/// How the confidence interval of a change was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IntervalMethod {
    /// The limit the percentile bootstrap approaches as its resamples grow,
    /// computed exactly (medians of small samples): no resampling, and the
    /// seed plays no part.
    Exact,
    /// The percentile bootstrap, from the resamples drawn with the seed.
    Resampled,
    /// The delta method, from stated means, standard deviations and n.
    Delta,
    /// The delta method on large samples (at least
    /// [`crate::stats::large_sample::LARGE_N`] values on a side), each
    /// median's spread from its order statistics: resampling would cost
    /// more than it adds.
    Asymptotic,
}

/// The verdict of one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Significant after correction, in the bad direction.
    Regressed,
    /// Significant after correction, in the good direction.
    Improved,
    /// Significant, but the direction of "good" is unknown.
    Changed,
    /// Not significant and the CI of the change lies within ±threshold.
    Unchanged,
    /// Not significant and the CI is wider than ±threshold: underpowered.
    Inconclusive,
    /// No variance information: no test is possible.
    Untestable,
}

impl Verdict {
    /// Lower-case name as used in JSON and text.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::Changed => "changed",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Untestable => "untestable",
        }
    }
}

/// Multiple-comparison correction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Correction {
    /// Benjamini–Hochberg false discovery rate (q-values).
    #[default]
    Bh,
    /// Holm's step-down family-wise error control.
    Holm,
    /// No correction: each p-value as its test gave it.
    None,
}

/// Which test to run on raw samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TestChoice {
    /// Mann-Whitney U for samples, Welch for summaries.
    #[default]
    Auto,
    /// Mann-Whitney U on samples.
    Mwu,
    /// Welch's t on samples.
    Welch,
}

/// Settings of an analysis (command-line flags or the study file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Name of the baseline variant; `None` = the first variant seen.
    pub baseline: Option<String>,
    /// Significance level.
    pub alpha: f64,
    /// Smallest change that matters, in percent (equivalence margin and gate).
    pub threshold_pct: f64,
    /// How p-values are corrected for the many comparisons of a report.
    pub correction: Correction,
    /// Which test is run on raw samples.
    pub test: TestChoice,
    /// n to assume for summary tables that do not state it.
    pub assume_n: Option<u64>,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Direction of metrics by name, overriding what the input states and
    /// what the name and unit suggest (study files, `--direction`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub directions: std::collections::BTreeMap<String, Direction>,
    /// Whether each variant's samples are kept in run order
    /// ([`VariantSummary::samples`]), as a report's charts draw them.
    /// Without, each side's samples are sorted in place once the figures
    /// that read their run order are taken, and the summaries keep none:
    /// two sides of ten million samples are then held once, not twice
    /// (`compare` without a report file). Not part of the settings
    /// written out.
    #[serde(skip, default = "keep_run_order")]
    pub keep_run_order: bool,
}

/// Run order is kept unless a caller says it needs none.
fn keep_run_order() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            baseline: None,
            alpha: 0.05,
            threshold_pct: 2.0,
            correction: Correction::Bh,
            test: TestChoice::Auto,
            assume_n: None,
            seed: 0x5eed,
            resamples: 10_000,
            directions: Default::default(),
            keep_run_order: keep_run_order(),
        }
    }
}

/// Summary of one variant within a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantSummary {
    /// The variant's name.
    pub variant: String,
    /// Number of samples, or the stated n; `None` when unknown.
    pub n: Option<u64>,
    /// Arithmetic mean.
    pub mean: Option<f64>,
    /// Median.
    pub median: Option<f64>,
    /// Standard deviation.
    pub stddev: Option<f64>,
    /// Smallest value.
    pub min: Option<f64>,
    /// Largest value.
    pub max: Option<f64>,
    /// Coefficient of variation in percent.
    pub cv_pct: Option<f64>,
    /// CI of the centre (median for samples, mean for summaries).
    pub ci_low: Option<f64>,
    /// Upper bound of the centre's CI (`ci_low` is its lower bound).
    pub ci_high: Option<f64>,
    /// Raw samples in run order (empty for summary-only data, for a side
    /// of more than [`RUN_ORDER_POINTS`](super::RUN_ORDER_POINTS) samples, which is `thinned`
    /// instead, and for every variant when [`Settings::keep_run_order`]
    /// was off).
    pub samples: Vec<f64>,
    /// What the charts draw of a side of more than [`RUN_ORDER_POINTS`](super::RUN_ORDER_POINTS)
    /// samples when run order is kept: buckets of its runs, and its box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinned: Option<Thinned>,
    /// True when the values come from stated summaries, not samples.
    pub from_summary: bool,
    /// Outliers by Tukey's fences (counted, never dropped).
    pub outliers: usize,
    /// Mann-Kendall trend p-value over run order, when enough samples.
    pub trend_p: Option<f64>,
}

impl VariantSummary {
    /// Whether the side has samples a report draws: in run order, or
    /// thinned.
    pub fn has_samples(&self) -> bool {
        !self.samples.is_empty() || self.thinned.is_some()
    }
}

/// One benchmark group: (benchmark, params, metric) with all its variants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// What was measured.
    pub benchmark: String,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: String,
    /// Which quantity the values are.
    pub metric: String,
    /// The unit every value of the group was converted to.
    pub unit: String,
    /// Which way is better.
    pub direction: Direction,
    /// One summary per variant, the baseline's among them.
    pub variants: Vec<VariantSummary>,
}

/// One variant compared with the baseline (the `--json` schema, plus extras
/// that are skipped there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What was measured.
    pub benchmark: String,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: String,
    /// Which quantity the values are.
    pub metric: String,
    /// The unit of the centres.
    pub unit: String,
    /// Which way is better.
    pub direction: Direction,
    /// The baseline variant's name.
    pub baseline: String,
    /// The compared variant's name.
    pub variant: String,
    /// The baseline's number of samples (or stated n); `None` when unknown.
    pub n_baseline: Option<u64>,
    /// The variant's number of samples (or stated n); `None` when unknown.
    pub n_variant: Option<u64>,
    /// The baseline's centre (see `center`).
    pub baseline_center: f64,
    /// The variant's centre (see `center`).
    pub variant_center: f64,
    /// Which centre the change is taken of.
    pub center: Center,
    /// (variant − baseline) / baseline, in percent.
    pub change_pct: f64,
    /// Lower bound of the change's confidence interval, in percent.
    pub ci_low_pct: Option<f64>,
    /// Upper bound of the change's confidence interval, in percent.
    pub ci_high_pct: Option<f64>,
    /// How the interval was computed; `None` when there is none.
    pub interval: Option<IntervalMethod>,
    /// The test that gave `p_value`.
    pub test: TestKind,
    /// The test's p-value, before correction; `None` without a test.
    pub p_value: Option<f64>,
    /// The p-value after the correction (q-value for BH).
    pub q_value: Option<f64>,
    /// Hedges' g for summaries and Welch, Cliff's δ for Mann-Whitney.
    pub effect_size: Option<f64>,
    /// Smallest change detectable at 80% power with this spread and n, in percent.
    pub min_detectable_pct: Option<f64>,
    /// n per side needed to detect the threshold (or, when untestable, to make
    /// the observed difference significant).
    pub n_needed: Option<u64>,
    /// What the comparison concludes.
    pub verdict: Verdict,
    /// A change the input itself stated, for cross-checking.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stated_change_pct: Option<f64>,
    /// Short remarks for footnotes ("n=3: needs ≥ 6 samples for a CI").
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<Note>,
}

/// What a [`Note`] is about: renderers and findings choose notes by kind,
/// never by their wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// No spread on a side: no t statistic.
    NoSpread,
    /// Welch's p beside a rank test, for reference.
    WelchReference,
    /// Too few values for a test to decide anything.
    TooFewForTest,
    /// Too few values for a distribution-free interval.
    TooFewForInterval,
    /// n was not stated and `--assume-n` supplied it.
    AssumedN,
    /// n was not stated: no test without `--assume-n`.
    NUnknown,
    /// The change is the input's own, not recomputed.
    StatedChange,
    /// The n per side at which the difference would become significant
    /// (or that none would).
    SignificantIfN,
    /// p below double precision, kept as a bound.
    PBound,
    /// Outliers on a side (kept).
    Outliers,
    /// A trend over run order on a side.
    Trend,
    /// The change % is undefined or relative to a negative baseline's
    /// magnitude.
    ChangeUndefined,
    /// A side's values were read by the document reader's fallback: no
    /// layout rule vouches for what they are.
    Fallback,
    /// Read back from JSON, where only the words are kept.
    Other,
}

/// A remark on one comparison. Serialised as its text alone (the JSON
/// schema is a list of strings); read back, its kind is [`NoteKind::Other`].
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// What the remark is about.
    pub kind: NoteKind,
    /// The remark as shown.
    pub text: String,
    /// What the note says without this row's own numbers, when notes of
    /// other rows say the same thing with theirs (outliers, trends): a
    /// table shows one footnote for all of them, the numbers being in the
    /// findings and in `text`.
    pub footnote: Option<String>,
}

impl Note {
    /// A note of `kind` saying `text`.
    pub fn new(kind: NoteKind, text: impl Into<String>) -> Note {
        Note {
            kind,
            text: text.into(),
            footnote: None,
        }
    }

    /// The note with the words it shares with other rows' notes.
    pub fn with_footnote(mut self, shared: impl Into<String>) -> Note {
        self.footnote = Some(shared.into());
        self
    }

    /// The words a table's footnote shows.
    pub fn footnote_text(&self) -> &str {
        self.footnote.as_deref().unwrap_or(&self.text)
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Note {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(Note::new(NoteKind::Other, String::deserialize(d)?))
    }
}

/// A comparison before anything is computed: no names, centres and change
/// unknown (NaN), no interval, no test, untestable. The analysis and test
/// fixtures fill in what they know and take the rest from here.
impl Default for Comparison {
    fn default() -> Comparison {
        Comparison {
            benchmark: String::new(),
            params: String::new(),
            metric: String::new(),
            unit: String::new(),
            direction: Direction::Unknown,
            baseline: String::new(),
            variant: String::new(),
            n_baseline: None,
            n_variant: None,
            baseline_center: f64::NAN,
            variant_center: f64::NAN,
            center: Center::Mean,
            change_pct: f64::NAN,
            ci_low_pct: None,
            ci_high_pct: None,
            interval: None,
            test: TestKind::None,
            p_value: None,
            q_value: None,
            effect_size: None,
            min_detectable_pct: None,
            n_needed: None,
            verdict: Verdict::Untestable,
            stated_change_pct: None,
            notes: Vec::new(),
        }
    }
}

/// Everything an analysis produced: what every renderer shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Analysis {
    /// The settings it ran with.
    pub settings: Settings,
    /// Every benchmark group with its variants' summaries.
    pub groups: Vec<Group>,
    /// Every variant compared with its group's baseline.
    pub comparisons: Vec<Comparison>,
    /// The soundness findings of the run.
    pub findings: Vec<Finding>,
}
