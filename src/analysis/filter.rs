//! `--filter EXPR`: selects observations by benchmark, params, metric,
//! variant, unit, stat, source or any parameter key.
//!
//! Grammar: terms joined by `,` or `&&`, all of which must hold. A term is
//! `KEY OP VALUE` with OP one of `=` `==` `!=` (equality; numeric when both
//! sides are numbers), `~` `!~` (case-insensitive regular expression match),
//! `<` `<=` `>` `>=` (numeric). KEY is `benchmark`, `params`, `metric`,
//! `variant`, `unit`, `stat`, `source` (or `file`), `line`, `block` (the
//! benchmark, which holds a document table's heading), or a parameter key such
//! as `threads` (then a row without that parameter does not match).
//! Examples: `benchmark~table 2`, `threads>=64`, `variant=patched`.

use crate::error::{Error, Result};
use crate::model::{Dataset, Head, Row, SelectTerm, Selection};
use regex::Regex;

/// A parsed filter expression.
#[derive(Debug, Clone)]
pub struct Filter {
    terms: Vec<Term>,
}

#[derive(Debug, Clone)]
struct Term {
    key: String,
    op: Op,
    value: String,
    regex: Option<Regex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Match,
    NotMatch,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Operators, longest first at any position.
const OPS: &[(&str, Op)] = &[
    ("!~", Op::NotMatch),
    ("!=", Op::Ne),
    (">=", Op::Ge),
    ("<=", Op::Le),
    ("==", Op::Eq),
    ("~", Op::Match),
    ("=", Op::Eq),
    (">", Op::Gt),
    ("<", Op::Lt),
];

impl Filter {
    /// Parses an expression; a malformed one is a usage error that shows it.
    pub fn parse(expr: &str) -> Result<Filter> {
        let mut terms = Vec::new();
        for part in expr.split("&&").flat_map(|p| p.split(',')) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            terms.push(parse_term(part)?);
        }
        if terms.is_empty() {
            return Err(Error::Usage(format!(
                "--filter `{expr}`: no condition given"
            )));
        }
        Ok(Filter { terms })
    }

    /// The part of the filter a reader can apply before it makes rows:
    /// its `=`/`!=` terms on text columns whose value is not a number (a
    /// number compares numerically, which a column of text cannot show).
    /// `variant` terms are left out unless `with_variant` (`compare` keeps
    /// the baseline's rows whatever its variant terms say).
    pub fn selection(&self, with_variant: bool) -> Selection {
        const TEXT: [&str; 6] = ["benchmark", "params", "metric", "variant", "unit", "source"];
        let terms = self
            .terms
            .iter()
            .filter(|t| matches!(t.op, Op::Eq | Op::Ne))
            .filter(|t| with_variant || t.key != "variant")
            .filter(|t| t.value.trim().parse::<f64>().is_err())
            .filter_map(|t| {
                let column = TEXT.into_iter().find(|c| *c == t.key)?;
                Some(SelectTerm {
                    column,
                    value: t.value.clone(),
                    equal: t.op == Op::Eq,
                })
            })
            .collect();
        Selection::new(terms)
    }

    /// True when `o` satisfies every term.
    pub fn matches(&self, o: &Row) -> bool {
        self.terms.iter().all(|t| t.matches(o))
    }

    /// The rows of `data` that match.
    pub fn apply(&self, data: &Dataset) -> Dataset {
        self.apply_keeping(data, None)
    }

    /// Like [`Filter::apply`], but `variant` terms never remove the rows of
    /// `keep_variant` (the baseline), so `variant=patched` still compares
    /// `patched` with the baseline instead of leaving nothing to compare.
    pub fn apply_keeping(&self, data: &Dataset, keep_variant: Option<&str>) -> Dataset {
        let mut kept = Dataset::default();
        for o in data.rows() {
            let keep = self.terms.iter().all(|t| {
                (t.key == "variant" && keep_variant == Some(o.variant.as_str())) || t.matches(&o)
            });
            if keep {
                kept.push_row(&o);
            }
        }
        kept
    }
}

fn parse_term(part: &str) -> Result<Term> {
    let mut best: Option<(usize, &str, Op)> = None;
    for &(sym, op) in OPS {
        if let Some(pos) = part.find(sym) {
            let better = match best {
                None => true,
                Some((bp, bs, _)) => pos < bp || (pos == bp && sym.len() > bs.len()),
            };
            if better {
                best = Some((pos, sym, op));
            }
        }
    }
    let Some((pos, sym, op)) = best else {
        return Err(Error::Usage(format!(
            "--filter term `{part}` has no operator (use =, !=, ~, !~, <, <=, >, >=)"
        )));
    };
    let key = part[..pos].trim().to_ascii_lowercase();
    let value = part[pos + sym.len()..]
        .trim()
        .trim_matches(['"', '\''])
        .to_string();
    if key.is_empty() {
        return Err(Error::Usage(format!(
            "--filter term `{part}` has no key before `{sym}`"
        )));
    }
    let key = match key.as_str() {
        "file" | "path" => "source".to_string(),
        // Document tables name their block (the heading above a table) in
        // the benchmark, so `block~rerun` selects one table of an e-mail.
        "bench" | "block" => "benchmark".to_string(),
        _ => key,
    };
    let regex = match op {
        Op::Match | Op::NotMatch => Some(Regex::new(&format!("(?i){value}")).map_err(|e| {
            Error::Usage(format!("--filter `{part}`: bad regular expression: {e}"))
        })?),
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            if value.parse::<f64>().is_err() {
                return Err(Error::Usage(format!(
                    "--filter `{part}`: `{value}` is not a number"
                )));
            }
            None
        }
        _ => None,
    };
    Ok(Term {
        key,
        op,
        value,
        regex,
    })
}

impl Term {
    fn field<'a>(&self, o: &Row<'a>) -> Option<std::borrow::Cow<'a, str>> {
        use std::borrow::Cow;
        let h: &'a Head = o.head;
        Some(match self.key.as_str() {
            "benchmark" => Cow::Borrowed(h.benchmark.as_str()),
            "params" => Cow::Borrowed(h.params.as_str()),
            "metric" => Cow::Borrowed(h.metric.as_str()),
            "variant" => Cow::Borrowed(h.variant.as_str()),
            "unit" => Cow::Borrowed(h.unit.as_str()),
            "source" => Cow::Borrowed(h.source.as_str()),
            "stat" => Cow::Owned(o.stat.to_string()),
            "line" => Cow::Owned(o.line.to_string()),
            key => {
                let v = h
                    .params
                    .split(',')
                    .filter_map(|kv| kv.split_once('='))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
                    .map(|(_, v)| v.trim())?;
                Cow::Borrowed(v)
            }
        })
    }

    fn matches(&self, o: &Row) -> bool {
        let Some(field) = self.field(o) else {
            return false;
        };
        let num = |s: &str| s.trim().parse::<f64>().ok();
        match self.op {
            Op::Match => self.regex.as_ref().is_some_and(|r| r.is_match(&field)),
            Op::NotMatch => self.regex.as_ref().is_some_and(|r| !r.is_match(&field)),
            Op::Eq | Op::Ne => {
                let eq = match (num(&field), num(&self.value)) {
                    (Some(a), Some(b)) => a == b,
                    _ => field.eq_ignore_ascii_case(&self.value),
                };
                eq == (self.op == Op::Eq)
            }
            Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                let (Some(a), Some(b)) = (num(&field), num(&self.value)) else {
                    return false;
                };
                match self.op {
                    Op::Lt => a < b,
                    Op::Le => a <= b,
                    Op::Gt => a > b,
                    _ => a >= b,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Observation;

    #[test]
    fn selection_takes_text_equalities_only() {
        let f = Filter::parse("variant=patched, metric!=time, threads=64, benchmark~pipe, unit=4")
            .unwrap();
        let s = f.selection(true);
        let cols: Vec<_> = s.terms().iter().map(|t| (t.column, t.equal)).collect();
        assert_eq!(cols, [("variant", true), ("metric", false)]);
        let s = f.selection(false);
        assert_eq!(s.terms().len(), 1);
        assert_eq!(s.terms()[0].column, "metric");
    }

    fn rows() -> Dataset {
        Dataset::new(vec![
            Observation::sample("futex-wake table 1", "time", "ms", 1.0)
                .with_params(&[("threads", "64")])
                .with_variant("baseline"),
            Observation::sample("futex-wake table 2", "time", "ms", 2.0)
                .with_params(&[("threads", "512")])
                .with_variant("barrier"),
            Observation::sample("futex-wake table 2", "time", "ms", 3.0)
                .with_params(&[("threads", "32")])
                .with_variant("baseline"),
        ])
    }

    #[test]
    fn selects_by_regex_numbers_and_variant() {
        let d = rows();
        assert_eq!(
            Filter::parse("benchmark~table 2").unwrap().apply(&d).len(),
            2
        );
        assert_eq!(
            Filter::parse("benchmark~TABLE 2, threads>=64")
                .unwrap()
                .apply(&d)
                .len(),
            1
        );
        assert_eq!(
            Filter::parse("threads>=64 && threads<512")
                .unwrap()
                .apply(&d)
                .len(),
            1
        );
        assert_eq!(Filter::parse("threads=64").unwrap().apply(&d).len(), 1);
        assert_eq!(Filter::parse("variant=barrier").unwrap().apply(&d).len(), 1);
        let kept = Filter::parse("variant=barrier")
            .unwrap()
            .apply_keeping(&d, Some("baseline"));
        assert_eq!(kept.len(), 3);
        assert_eq!(
            Filter::parse("benchmark!~table 1").unwrap().apply(&d).len(),
            2
        );
        assert_eq!(Filter::parse("stat=sample").unwrap().apply(&d).len(), 3);
        // A row without the parameter does not match a condition on it.
        assert_eq!(Filter::parse("size>1").unwrap().apply(&d).len(), 0);
    }

    #[test]
    fn malformed_expressions_are_usage_errors() {
        for bad in ["threads", "=3", "threads>=many", "benchmark~(", ""] {
            let e = Filter::parse(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
    }
}
