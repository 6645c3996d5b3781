//! A study's run: from its file to what the renderers need. Ingest every
//! input with the registry, name and filter the values, analyse, run the
//! checks, and describe the study for the report.

use super::study::{parse_lines, Study};
use crate::analysis::{self, Analysis, Filter};
use crate::checks::{comparison_findings, CheckInputs};
use crate::error::{Error, Result};
use crate::ingest::{add_user_formats, ingest, IngestOptions, Registry};
use crate::model::Ingested;
use crate::model::{Finding, FindingCode, Severity, Topic};
use crate::report::{ReportContext, VariantInfo};
use std::collections::HashMap;

/// Everything a report of a study is made from.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The analysis of the study's rows.
    pub analysis: Analysis,
    /// What the reports show beside it (inputs, checks, settings).
    pub context: ReportContext,
    /// What was read, file by file.
    pub ingested: Ingested,
}

/// Reads, analyses and checks a study.
pub fn prepare(study: &Study) -> Result<Prepared> {
    let mut registry = Registry::builtin();
    add_user_formats(&mut registry, &[], &study.extractor_paths()?)
        .map_err(|e| in_study(study, "extractors", e))?;
    let mut read = Vec::with_capacity(study.variants.len());
    for v in &study.variants {
        if v.inputs.is_empty() {
            continue;
        }
        let paths: Vec<_> = v.inputs.iter().map(|p| study.resolve(p)).collect();
        let opts = IngestOptions {
            format: v.format.clone(),
            variant: Some(v.name.clone()),
            default_variant: None,
            ..Default::default()
        };
        read.push(
            ingest(&paths, &registry, &opts)
                .map_err(|e| in_study(study, &format!("variant `{}`", v.name), e))?,
        );
    }
    super::unnamed::name_after_shared_part(&mut read);
    let mut ingested = Ingested::default();
    for r in read {
        ingested.append(r);
    }
    let mut dataset = std::mem::take(&mut ingested.dataset);
    for d in &study.documents {
        let path = study.resolve(&d.path);
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let ing = ingest(
            std::slice::from_ref(&path),
            &registry,
            &IngestOptions {
                format: d.format.clone(),
                variant: None,
                default_variant: Some(stem),
                ..Default::default()
            },
        )
        .map_err(|e| in_study(study, &format!("document {}", d.path), e))?;
        let range = d
            .lines
            .as_deref()
            .map(parse_lines)
            .transpose()
            .map_err(Error::Usage)?;
        let mut kept = 0;
        for o in ing.dataset.rows() {
            if let Some((a, b)) = range {
                if o.line < a || o.line > b {
                    continue;
                }
            }
            if d.skip.iter().any(|s| *s == o.variant) {
                continue;
            }
            let mut o = o.to_observation();
            if let Some(v) = d.variants.get(o.variant.as_str()) {
                o.variant = v.into();
            }
            if let Some(b) = &d.benchmark {
                o.benchmark = b.into();
            }
            kept += 1;
            dataset.push(o);
        }
        for mut f in ing.files {
            if range.is_some() || !d.skip.is_empty() {
                f.note = Some(format!(
                    "{} of {} values used (lines {})",
                    kept,
                    f.rows,
                    d.lines.as_deref().unwrap_or("all")
                ));
                f.rows = kept;
            }
            ingested.files.push(f);
        }
    }
    // Units for metrics read without one.
    let units: HashMap<&str, &str> = study
        .metrics
        .iter()
        .filter_map(|m| m.unit.as_deref().map(|u| (m.name.as_str(), u)))
        .collect();
    for h in dataset.heads_mut() {
        if h.unit.is_empty() {
            if let Some(u) = units.get(h.metric.as_str()) {
                h.unit = (*u).into();
            }
        }
    }
    if dataset.is_empty() {
        let why: Vec<String> = ingested
            .files
            .iter()
            .map(|f| {
                format!(
                    "{}: {}",
                    f.path,
                    f.note.clone().unwrap_or_else(|| format!("{} rows", f.rows))
                )
            })
            .collect();
        return Err(Error::Usage(format!(
            "{}: no values were read from the study's inputs ({})",
            study.path.display(),
            why.join("; ")
        )));
    }
    let settings = study.settings()?;
    if let Some(expr) = &study.analysis.filter {
        let f = Filter::parse(expr)?;
        dataset = f.apply_keeping(&dataset, settings.baseline.as_deref());
    }
    // A baseline missing from the rows is most often a variant whose
    // files gave nothing: the error names them.
    let mut analysis = analysis::analyze(&dataset, &settings).map_err(|e| match e {
        Error::Usage(m) => Error::Usage(format!(
            "{}: {m}{}",
            study.path.display(),
            super::inputs::unread_inputs(&ingested.files)
        )),
        other => other,
    })?;
    ingested.dataset = dataset;

    // Checks: every variant's config and environment against the baseline's.
    let baseline = settings.baseline.clone().unwrap_or_default();
    let base_spec = study.variants.iter().find(|v| v.name == baseline);
    let mut findings: Vec<Finding> = Vec::new();
    let mut suspect: HashMap<String, String> = HashMap::new();
    let others: Vec<_> = study
        .variants
        .iter()
        .filter(|v| v.name != baseline)
        .collect();
    // The per-variant calls pass the analysis only so that findings can name
    // the benchmarks an option distorts; its statistical signatures are
    // added once below, not once per variant.
    let signature_codes: std::collections::HashSet<FindingCode> =
        crate::checks::signature_findings(&analysis)
            .into_iter()
            .map(|f| f.code)
            .collect();
    let mut errors_of: HashMap<String, Vec<FindingCode>> = HashMap::new();
    for v in &others {
        let Some(b) = base_spec else { break };
        let kconfig = match (&b.kconfig, &v.kconfig) {
            (Some(a), Some(c)) => Some((study.resolve(a), study.resolve(c))),
            _ => None,
        };
        let env = match (&b.environment, &v.environment) {
            (Some(a), Some(c)) => Some((study.resolve(a), study.resolve(c))),
            _ => None,
        };
        let inputs = CheckInputs {
            kconfig,
            env,
            rules: None,
        };
        if inputs.is_empty() {
            continue;
        }
        for mut f in comparison_findings(&inputs, Some(&analysis))? {
            if signature_codes.contains(&f.code) {
                continue;
            }
            if others.len() > 1 && !f.title.contains(&v.name) {
                f.title = format!("{}: {}", v.name, f.title);
            }
            if f.severity == Severity::Error {
                errors_of
                    .entry(v.name.clone())
                    .or_default()
                    .push(f.code.clone());
            }
            findings.push(f);
        }
    }
    for (v, codes) in errors_of {
        let kconfig = codes.iter().filter(|c| c.topic() == Topic::Kconfig).count();
        let reason = if kconfig == codes.len() {
            format!(
                "its kernel .config differs from the baseline's in {kconfig} option{} known to distort benchmarks",
                if kconfig == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "{} configuration or environment error{} against the baseline",
                codes.len(),
                if codes.len() == 1 { "" } else { "s" }
            )
        };
        suspect.insert(v, reason);
    }
    findings.extend(comparison_findings(
        &CheckInputs::default(),
        Some(&analysis),
    )?);
    findings.extend(std::mem::take(&mut analysis.findings));
    let mut seen = std::collections::HashSet::new();
    findings.retain(|f| seen.insert((f.code.clone(), f.title.clone(), f.evidence.clone())));
    crate::model::sort_findings(&mut findings);
    analysis.findings = findings;

    let context = ReportContext {
        name: study.name(),
        title: study.title.clone().unwrap_or_else(|| study.name()),
        description: study.description.clone().unwrap_or_default(),
        variants: study
            .variants
            .iter()
            .map(|v| VariantInfo {
                name: v.name.clone(),
                description: v.description.clone().unwrap_or_default(),
                kconfig: v
                    .kconfig
                    .as_ref()
                    .map(|p| study.resolve(p).display().to_string()),
                environment: v
                    .environment
                    .as_ref()
                    .map(|p| study.resolve(p).display().to_string()),
                suspect: suspect.get(&v.name).cloned(),
            })
            .collect(),
        files: ingested.files.clone(),
        metric_names: study
            .metrics
            .iter()
            .filter_map(|m| m.display.clone().map(|d| (m.name.clone(), d)))
            .collect(),
    };
    Ok(Prepared {
        analysis,
        context,
        ingested,
    })
}

/// Says which study entry a usage or I/O error comes from; errors that
/// already name a file and line are left as they are.
fn in_study(study: &Study, what: &str, e: Error) -> Error {
    match e {
        Error::Usage(m) => Error::Usage(format!("{} ({what}): {m}", study.path.display())),
        Error::Io { path, source } => Error::Usage(format!(
            "{} ({what}): {}: {source}",
            study.path.display(),
            path.display()
        )),
        other => other,
    }
}
