//! `compare --json`: the schema of one comparison (README, "compare
//! --json") and the document, serialised in pieces on all threads.

use crate::analysis::Center;
use crate::analysis::Verdict;
use crate::analysis::{Analysis, Comparison};
use crate::error::Result;
use crate::model::Direction;
use crate::model::Finding;
use crate::report::json_pieces::Pieces;
use serde::Serialize;

/// One comparison in the `--json` schema (README, "compare --json").
#[derive(Debug, Serialize)]
pub struct JsonComparison<'a> {
    /// What was measured.
    pub benchmark: &'a str,
    /// Its parameters, `key=value` pairs joined by commas.
    pub params: &'a str,
    /// Which quantity the values are.
    pub metric: &'a str,
    /// The unit of the centres.
    pub unit: &'a str,
    /// Which way is better.
    pub direction: Direction,
    /// The baseline variant's name.
    pub baseline: &'a str,
    /// The compared variant's name.
    pub variant: &'a str,
    /// The baseline's number of samples (or stated n); `None` (null) when unknown.
    pub n_baseline: Option<u64>,
    /// The variant's number of samples (or stated n); `None` (null) when unknown.
    pub n_variant: Option<u64>,
    /// The baseline's centre (see `center`). `None` (null) when not finite.
    pub baseline_center: Option<f64>,
    /// The variant's centre (see `center`). `None` (null) when not finite.
    pub variant_center: Option<f64>,
    /// Which centre the change is taken of.
    pub center: Center,
    /// (variant − baseline) / baseline, in percent. `None` (null) when not finite.
    pub change_pct: Option<f64>,
    /// Lower bound of the change's confidence interval, in percent.
    pub ci_low_pct: Option<f64>,
    /// Upper bound of the change's confidence interval, in percent.
    pub ci_high_pct: Option<f64>,
    /// How the interval was computed; `None` (null) when there is none.
    pub interval: Option<crate::analysis::IntervalMethod>,
    /// The test that gave `p_value`.
    pub test: crate::analysis::TestKind,
    /// The test's p-value, before correction; `None` without a test.
    pub p_value: Option<f64>,
    /// The p-value after the correction (q-value for BH).
    pub q_value: Option<f64>,
    /// Hedges' g for summaries and Welch, Cliff's δ for Mann-Whitney.
    pub effect_size: Option<f64>,
    /// Smallest change detectable at 80% power with this spread and n, in percent.
    pub min_detectable_pct: Option<f64>,
    /// n per side needed to detect the threshold (or, when untestable, to
    /// make the observed difference significant).
    pub n_needed: Option<u64>,
    /// What the comparison concludes.
    pub verdict: Verdict,
}

/// The whole `--json` document.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    /// Every comparison, in the analysis' order.
    pub comparisons: Vec<JsonComparison<'a>>,
    /// The soundness findings of the run.
    pub findings: &'a [Finding],
}

pub(crate) fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl<'a> JsonComparison<'a> {
    /// A comparison as the `--json` schema shows it: non-finite numbers
    /// become null.
    pub fn of(c: &'a Comparison) -> Self {
        JsonComparison {
            benchmark: &c.benchmark,
            params: &c.params,
            metric: &c.metric,
            unit: &c.unit,
            direction: c.direction,
            baseline: &c.baseline,
            variant: &c.variant,
            n_baseline: c.n_baseline,
            n_variant: c.n_variant,
            baseline_center: finite(c.baseline_center),
            variant_center: finite(c.variant_center),
            center: c.center,
            change_pct: finite(c.change_pct),
            ci_low_pct: c.ci_low_pct.and_then(finite),
            ci_high_pct: c.ci_high_pct.and_then(finite),
            interval: c.interval,
            test: c.test,
            p_value: c.p_value,
            q_value: c.q_value,
            effect_size: c.effect_size.and_then(finite),
            min_detectable_pct: c.min_detectable_pct.and_then(finite),
            n_needed: c.n_needed,
            verdict: c.verdict,
        }
    }
}

impl<'a> JsonReport<'a> {
    /// The whole document as one value.
    pub fn of(a: &'a Analysis) -> Self {
        JsonReport {
            comparisons: a.comparisons.iter().map(JsonComparison::of).collect(),
            findings: &a.findings,
        }
    }
}

/// The `--json` document of an analysis: the bytes of [`JsonReport`]
/// pretty-printed by serde_json, with a final newline. The comparisons (a
/// lab's run has thousands) are serialised on all threads, in pieces
/// written in order; the fields are those of [`JsonReport`], in its order.
pub fn to_json(a: &Analysis) -> Result<Pieces<'static>> {
    let mut doc = Pieces::new();
    fill(&mut doc, a)?;
    Ok(doc)
}

/// [`to_json`] written to `out` as it is made: a run of millions of
/// comparisons never holds its JSON. I/O errors name `name`.
pub fn write_json(
    a: &Analysis,
    out: &mut dyn std::io::Write,
    name: &std::path::Path,
) -> Result<()> {
    let mut doc = Pieces::streaming(out, name);
    fill(&mut doc, a)?;
    doc.finish()
}

fn fill(doc: &mut Pieces<'_>, a: &Analysis) -> Result<()> {
    doc.push_raw(b"{\n  \"comparisons\": ");
    doc.push_array(&a.comparisons, 1, JsonComparison::of)?;
    doc.push_raw(b",\n  \"findings\": ");
    doc.push_value(&a.findings, 1)?;
    doc.push_raw(b"\n}\n");
    Ok(())
}

/// The `compare --json` [`Renderer`](super::renderer::Renderer).
pub struct CompareJson;

impl super::renderer::Renderer for CompareJson {
    fn render(&self, r: &super::renderer::Report<'_>) -> Result<Vec<u8>> {
        Ok(to_json(r.analysis)?.into_bytes())
    }

    fn render_to(
        &self,
        r: &super::renderer::Report<'_>,
        out: &mut dyn std::io::Write,
        name: &std::path::Path,
    ) -> Result<()> {
        write_json(r.analysis, out, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, Settings};
    use crate::model::{Dataset, Observation, Stat};

    /// rt-tests hackbench `-g 4 -l 200`, corpus files 1–10 per side (seconds).
    const HACK_BASE: [f64; 10] = [
        0.460, 0.523, 0.474, 0.687, 0.744, 0.688, 0.587, 0.642, 0.809, 0.851,
    ];
    const HACK_PATCHED: [f64; 10] = [
        0.593, 0.666, 0.607, 0.618, 0.768, 0.803, 0.517, 0.582, 0.653, 0.616,
    ];

    /// `groups` benchmarks from the hackbench figures, scaled per group; every
    /// third one has stated mean and stddev instead of samples (nulls in the
    /// JSON), every seventh a params string, and a last benchmark only the
    /// baseline ran (a group without a comparison).
    fn rows(groups: usize, with_patched: bool) -> Vec<Observation> {
        let mut rows = Vec::new();
        for g in 0..groups {
            let bench = format!("hackbench \"g{g}\"");
            let scale = 1.0 + g as f64 / 7.0;
            let params = if g % 7 == 0 { "threads=4" } else { "" };
            let sides: &[(&str, &[f64])] = if with_patched {
                &[("baseline", &HACK_BASE), ("patched", &HACK_PATCHED)]
            } else {
                &[("baseline", &HACK_BASE)]
            };
            for (variant, xs) in sides {
                if g % 3 == 1 {
                    let mean = scale * xs.iter().sum::<f64>() / xs.len() as f64;
                    for (stat, v) in [(Stat::Mean, mean), (Stat::Stddev, 0.1 * scale)] {
                        rows.push(
                            Observation::new(bench.as_str(), "time", "s", stat, v)
                                .with_params_str(params)
                                .with_variant(*variant),
                        );
                    }
                } else {
                    for (i, x) in xs.iter().enumerate() {
                        rows.push(
                            Observation::sample(bench.as_str(), "time", "s", scale * x)
                                .with_params_str(params)
                                .with_variant(*variant)
                                .with_run(i as u32),
                        );
                    }
                }
            }
        }
        rows.push(Observation::sample("baseline only", "time", "s", 1.0).with_variant("baseline"));
        rows
    }

    #[test]
    fn json_pieces_are_the_bytes_serde_writes_for_the_whole_document() {
        let settings = Settings {
            resamples: 200,
            ..Settings::default()
        };
        // No comparison at all (a finding says so), a few (serialised on
        // this thread) and more than the pool threshold.
        for (groups, with_patched, comparisons) in
            [(3, false, 0), (1, true, 1), (5, true, 5), (300, true, 300)]
        {
            let a = analyze(&Dataset::new(rows(groups, with_patched)), &settings).unwrap();
            assert_eq!(a.comparisons.len(), comparisons);
            assert!(!a.findings.is_empty());
            let mut reference = serde_json::to_string_pretty(&JsonReport::of(&a)).unwrap();
            reference.push('\n');
            let ours = String::from_utf8(to_json(&a).unwrap().into_bytes()).unwrap();
            assert_eq!(ours, reference, "{groups} groups");
            let mut streamed = Vec::new();
            write_json(&a, &mut streamed, std::path::Path::new("-")).unwrap();
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                reference,
                "{groups} groups"
            );
        }
    }
}
