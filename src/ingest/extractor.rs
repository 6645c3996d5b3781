//! User-defined extractors: a TOML file of regular expressions whose named
//! captures become tidy fields, so that a harness nobody wrote an importer
//! for is read without code (`patchperf ingest --extractor FILE`).
//!
//! ```toml
//! name = "wakeup-latency"              # the format name shown by ingest
//! detect = '^maximum latency: '        # optional: claims files where it matches
//! benchmark = "wakeup-latency"         # defaults for every rule (all optional)
//! unit = "us"
//!
//! [[rule]]                             # rules are tried in order per line
//! regex = '^(?P<variant>with|without):$'
//! context = true                       # captures label the values that follow
//!
//! [[rule]]
//! regex = '^maximum latency: (?P<value>[\d.]+) (?P<unit>\S+)'
//! metric = "latency"
//! stat = "max"
//!
//! [[rule]]                             # several values on one line
//! regex = '^\s+(?P<lo>\d+)\s+(?P<avg>[\d.]+)$'
//! [rule.values]
//! lo = { stat = "min" }
//! avg = { stat = "mean" }
//! ```
//!
//! A field of a value comes from, in order: its entry under `values`, the
//! rule's constant, a capture of the field's name, the context set by
//! earlier `context = true` rules, the file's constant, and finally a default
//! (benchmark = the extractor's name, metric `value`, stat `sample`).
//! Constants may refer to captures and context as `{name}`. Captures named
//! `param_KEY` and `params = { KEY = "…" }` tables add params. A rule with
//! `quote_depth = N` only reads lines quoted N levels deep in an e-mail.

use super::numbers::parse_number;
use super::{Confidence, Format, Parsed, Source};
use crate::error::{Error, Result};
use crate::model::{canonical_params, Observation, Stat};
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    name: Spanned<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    detect: Option<Spanned<String>>,
    #[serde(default)]
    benchmark: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    stat: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, String>,
    #[serde(default)]
    rule: Vec<RuleSpec>,
}

/// The tidy fields a file, rule or value entry may set (templates).
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct Fields {
    #[serde(default)]
    benchmark: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    stat: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    regex: Spanned<String>,
    #[serde(default)]
    context: bool,
    #[serde(default)]
    quote_depth: Option<u8>,
    #[serde(default)]
    benchmark: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    stat: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, String>,
    #[serde(default)]
    values: BTreeMap<String, Fields>,
}

struct Rule {
    re: Regex,
    context: bool,
    quote_depth: Option<u8>,
    fields: Fields,
    /// Capture name → its fields, in the order the captures appear.
    values: Vec<(String, Fields)>,
    /// 1-based line of the rule's regex in the TOML file, for errors.
    toml_line: u32,
}

/// A loaded extractor: one [`Format`] built from a TOML file.
pub struct Extractor {
    name: &'static str,
    description: &'static str,
    detect: Option<Regex>,
    fields: Fields,
    rules: Vec<Rule>,
    path: String,
}

/// The tidy fields of a file or rule spec (they repeat [`Fields`] inline
/// because serde cannot refuse unknown keys through a flattened struct).
macro_rules! fields_of {
    ($s:expr) => {
        Fields {
            benchmark: $s.benchmark.clone(),
            variant: $s.variant.clone(),
            metric: $s.metric.clone(),
            unit: $s.unit.clone(),
            stat: $s.stat.clone(),
            params: $s.params.clone(),
        }
    };
}

fn line_of(text: &str, offset: usize) -> u32 {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}

const TIDY: &[&str] = &["benchmark", "variant", "metric", "unit", "stat"];

impl Extractor {
    /// Reads an extractor file. Errors name the file and the TOML line.
    pub fn load(path: &Path) -> Result<Extractor> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Extractor::from_toml(&path.display().to_string(), &text)
    }

    /// Builds an extractor from TOML text; `path` labels errors.
    pub fn from_toml(path: &str, text: &str) -> Result<Extractor> {
        let spec: FileSpec = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start));
            Error::input(path, line, format!("extractor: {}", e.message().trim()))
        })?;
        let compile = |s: &Spanned<String>| {
            Regex::new(s.get_ref()).map_err(|e| {
                Error::input(
                    path,
                    Some(line_of(text, s.span().start)),
                    format!("extractor: bad regex: {e}"),
                )
            })
        };
        let check_stat = |f: &Fields, line: u32| -> Result<()> {
            if let Some(s) = &f.stat {
                if !s.contains('{') && s.parse::<Stat>().is_err() {
                    return Err(Error::input(
                        path,
                        Some(line),
                        format!("extractor: unknown stat `{s}`"),
                    ));
                }
            }
            Ok(())
        };
        let file_fields = fields_of!(spec);
        check_stat(&file_fields, line_of(text, spec.name.span().start))?;
        // Names a context rule can set, which `values` may then read.
        let mut context_names: Vec<String> = Vec::new();
        for r in spec.rule.iter().filter(|r| r.context) {
            if let Ok(re) = Regex::new(r.regex.get_ref()) {
                context_names.extend(re.capture_names().flatten().map(String::from));
            }
        }
        let mut rules = Vec::new();
        for r in &spec.rule {
            let toml_line = line_of(text, r.regex.span().start);
            let re = compile(&r.regex)?;
            let rule_fields = fields_of!(r);
            check_stat(&rule_fields, toml_line)?;
            let names: Vec<&str> = re.capture_names().flatten().collect();
            for (cap, f) in &r.values {
                if !names.contains(&cap.as_str()) && !context_names.iter().any(|n| n == cap) {
                    return Err(Error::input(
                        path,
                        Some(toml_line),
                        format!("extractor: `values.{cap}` names no capture of this rule or of a context rule"),
                    ));
                }
                check_stat(f, toml_line)?;
            }
            if !r.context && r.values.is_empty() && !names.contains(&"value") {
                return Err(Error::input(
                    path,
                    Some(toml_line),
                    "extractor: a rule needs a `value` capture, a `values` table, or `context = true`",
                ));
            }
            // Keep the order of the captures in the regex, not the table's.
            let mut values: Vec<(String, Fields)> = r
                .values
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            values.sort_by_key(|(k, _)| names.iter().position(|n| n == k));
            rules.push(Rule {
                re,
                context: r.context,
                quote_depth: r.quote_depth,
                fields: rule_fields,
                values,
                toml_line,
            });
        }
        if rules.is_empty() {
            return Err(Error::input(path, None, "extractor: no [[rule]] given"));
        }
        let detect = spec.detect.as_ref().map(compile).transpose()?;
        // Formats are named by `&'static str`; an extractor lives as long as
        // the command that loaded it, so leaking its two strings is harmless.
        let name: &'static str = Box::leak(spec.name.into_inner().into_boxed_str());
        let description: &'static str = Box::leak(
            spec.description
                .unwrap_or_else(|| format!("user-defined extractor from {path}"))
                .into_boxed_str(),
        );
        Ok(Extractor {
            name,
            description,
            detect,
            fields: file_fields,
            rules,
            path: path.to_string(),
        })
    }

    /// The first rule that reads a line, with its captures.
    fn matching_rule<'a>(
        &'a self,
        text: &'a str,
        depth: u8,
    ) -> Option<(&'a Rule, regex::Captures<'a>)> {
        self.rules
            .iter()
            .filter(|r| r.quote_depth.is_none_or(|d| d == depth))
            .find_map(|r| r.re.captures(text).map(|c| (r, c)))
    }
}

/// Expands `{name}` from the captures, then the context.
fn expand(
    template: &str,
    caps: &BTreeMap<String, String>,
    ctx: &BTreeMap<String, String>,
) -> std::result::Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('}') else {
            return Err(format!("unclosed `{{` in `{template}`"));
        };
        let key = &rest[i + 1..i + j];
        match caps.get(key).or_else(|| ctx.get(key)) {
            Some(v) => out.push_str(v),
            None => {
                return Err(format!(
                    "`{{{key}}}` is neither a capture nor set by a context rule yet"
                ))
            }
        }
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

impl Format for Extractor {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn detect(&self, src: &Source) -> Confidence {
        match &self.detect {
            Some(re) => {
                // The user named this extractor; where its own signature
                // matches it outranks every built-in format.
                if src.lines.iter().any(|l| re.is_match(&l.text)) {
                    99
                } else {
                    0
                }
            }
            None => {
                let hit = src.lines.iter().any(|l| {
                    self.matching_rule(&l.text, l.quote_depth)
                        .is_some_and(|(r, _)| !r.context)
                });
                if hit {
                    80
                } else {
                    0
                }
            }
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut ctx: BTreeMap<String, String> = BTreeMap::new();
        let mut ctx_params: BTreeMap<String, String> = BTreeMap::new();
        let mut out = Vec::new();
        for l in &src.lines {
            let Some((rule, c)) = self.matching_rule(&l.text, l.quote_depth) else {
                continue;
            };
            let tomlerr = |m: String| {
                Error::input(
                    &self.path,
                    Some(rule.toml_line),
                    format!("extractor `{}`: {m}", self.name),
                )
            };
            let caps: BTreeMap<String, String> = rule
                .re
                .capture_names()
                .flatten()
                .filter_map(|n| c.name(n).map(|m| (n.to_string(), m.as_str().to_string())))
                .collect();
            let mut params: BTreeMap<String, String> = BTreeMap::new();
            for (k, v) in &caps {
                if let Some(p) = k.strip_prefix("param_") {
                    params.insert(p.to_string(), v.clone());
                }
            }
            for (k, t) in &rule.fields.params {
                params.insert(k.clone(), expand(t, &caps, &ctx).map_err(&tomlerr)?);
            }
            if rule.context {
                for (k, v) in &caps {
                    if !k.starts_with("param_") {
                        ctx.insert(k.clone(), v.clone());
                    }
                }
                for f in TIDY {
                    if let Some(t) = field_of(&rule.fields, f) {
                        let v = expand(t, &caps, &ctx).map_err(&tomlerr)?;
                        ctx.insert(f.to_string(), v);
                    }
                }
                ctx_params.extend(params);
                continue;
            }
            let mut all_params = BTreeMap::new();
            for (k, t) in &self.fields.params {
                all_params.insert(k.clone(), expand(t, &caps, &ctx).map_err(&tomlerr)?);
            }
            all_params.extend(ctx_params.clone());
            all_params.extend(params);
            let params: Vec<(String, String)> = all_params.into_iter().collect();
            let params = canonical_params(&params);
            let values: Vec<(String, Fields)> = if rule.values.is_empty() {
                vec![("value".to_string(), Fields::default())]
            } else {
                rule.values.clone()
            };
            for (cap, vf) in &values {
                // A capture of this line, else a value a context rule kept
                // (`Iterations=5000` above a table gives its n).
                let Some(raw) = caps.get(cap).or_else(|| ctx.get(cap)) else {
                    continue;
                };
                let value = parse_number(raw).ok_or_else(|| {
                    src.error(
                        Some(l.number),
                        format!("extractor `{}`: `{raw}` ({cap}) is not a number", self.name),
                    )
                })?;
                let field = |f: &str| -> Result<Option<String>> {
                    let template = field_of(vf, f).or_else(|| field_of(&rule.fields, f));
                    if let Some(t) = template {
                        return expand(t, &caps, &ctx).map(Some).map_err(&tomlerr);
                    }
                    if let Some(v) = caps.get(f).or_else(|| ctx.get(f)) {
                        return Ok(Some(v.clone()));
                    }
                    match field_of(&self.fields, f) {
                        Some(t) => expand(t, &caps, &ctx).map(Some).map_err(&tomlerr),
                        None => Ok(None),
                    }
                };
                let stat = match field("stat")? {
                    Some(s) => s.parse::<Stat>().map_err(|e| {
                        src.error(Some(l.number), format!("extractor `{}`: {e}", self.name))
                    })?,
                    None => Stat::Sample,
                };
                let benchmark = field("benchmark")?.unwrap_or_else(|| self.name.to_string());
                let metric = field("metric")?.unwrap_or_else(|| "value".into());
                let unit = field("unit")?.unwrap_or_default();
                let variant = field("variant")?.unwrap_or_default();
                out.push(
                    Observation::new(benchmark, metric, &unit, stat, value)
                        .with_variant(variant)
                        .with_params_str(params.clone())
                        .at_line(l.number),
                );
            }
        }
        Ok(out.into())
    }
}

/// Puts the formats a user describes on the command line ahead of the
/// built-in ones: a `--map` column mapping (as mapped tidy CSV and JSON)
/// and each `--extractor` file, later files first so that the first file
/// given wins ties.
pub fn add_user_formats(
    registry: &mut super::Registry,
    map: &[String],
    extractors: &[std::path::PathBuf],
) -> Result<()> {
    let map = super::FieldMap::parse(map)?;
    if !map.is_empty() {
        registry.push_front(Box::new(super::TidyJson::with_map(map.clone())));
        registry.push_front(Box::new(super::TidyCsv::with_map(map)));
    }
    for path in extractors.iter().rev() {
        registry.push_front(Box::new(Extractor::load(path)?));
    }
    Ok(())
}

fn field_of<'a>(f: &'a Fields, name: &str) -> Option<&'a String> {
    match name {
        "benchmark" => f.benchmark.as_ref(),
        "variant" => f.variant.as_ref(),
        "metric" => f.metric.as_ref(),
        "unit" => f.unit.as_ref(),
        "stat" => f.stat.as_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_errors_name_file_and_line() {
        let e = Extractor::from_toml("x.toml", "name = \"x\"\n\n[[rule]]\nregex = '(unclosed'\n")
            .err()
            .unwrap();
        assert!(
            e.to_string().starts_with("x.toml:4: extractor: bad regex"),
            "{e}"
        );
        let e = Extractor::from_toml("x.toml", "name = \"x\"\n[[rule]]\nregex = 'a'\nbogus = 1\n")
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("x.toml:4:"), "{e}");
        let e = Extractor::from_toml("x.toml", "name = \"x\"\n[[rule]]\nregex = 'a'\n")
            .err()
            .unwrap();
        assert!(e.to_string().contains("needs a `value` capture"), "{e}");
    }

    #[test]
    fn context_rules_label_later_values() {
        let x = Extractor::from_toml(
            "x.toml",
            "name = \"demo\"\nunit = \"us\"\n[[rule]]\nregex = '^(?P<variant>\\w+):$'\ncontext = true\n\
             [[rule]]\nregex = '^lat (?P<value>[\\d.]+)'\nmetric = \"latency\"\nstat = \"max\"\n",
        )
        .unwrap();
        let src = Source::from_text("d.txt", "old:\nlat 4.5\nnew:\nlat 3\n");
        let obs = x.parse(&src).unwrap();
        assert_eq!(obs.len(), 2);
        assert_eq!(
            (obs[0].variant.as_str(), obs[0].value, obs[0].stat),
            ("old", 4.5, Stat::Max)
        );
        assert_eq!(
            (obs[1].variant.as_str(), obs[1].line, obs[1].unit.as_str()),
            ("new", 4, "us")
        );
        assert_eq!(obs[1].benchmark, "demo");
    }
}
