//! The brief: a block of at most [`MAX_LINES`] lines of at most
//! [`WIDTH`] columns that a reviewer pastes into a reply. A headline, one
//! line per error finding, then one line per comparison (what, baseline →
//! variant, change with its interval, p or q, verdict), regressions first;
//! what does not fit is counted on a last line.

use crate::analysis::{Analysis, Comparison, Verdict};
use crate::model::{FindingCode, Severity};
use crate::report::format::{counted, pct, pvalue};

/// Columns of a line: what a mail reply keeps unwrapped.
pub const WIDTH: usize = 72;

/// Lines of the whole block.
pub const MAX_LINES: usize = 25;

/// The brief of `analysis`; `title` names the study or the inputs.
pub fn render(analysis: &Analysis, title: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let head = format!("{title}: {}", headline(analysis));
    if head.chars().count() <= WIDTH {
        lines.push(head);
    } else {
        lines.push(fit(title));
        lines.push(fit(&headline(analysis)));
    }
    // One line per kind of error: the first one's words and how many more.
    let mut by_code: Vec<(&FindingCode, &str, usize)> = Vec::new();
    for f in analysis
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
    {
        match by_code.iter_mut().find(|e| *e.0 == f.code) {
            Some(e) => e.2 += 1,
            None => by_code.push((&f.code, &f.title, 1)),
        }
    }
    let errors: Vec<String> = by_code
        .iter()
        .map(|(code, title, n)| {
            let more = if *n > 1 {
                format!(" (+{} more)", n - 1)
            } else {
                String::new()
            };
            let tail = format!("{more} [{code}]");
            let room = WIDTH.saturating_sub("error: ".len() + tail.chars().count());
            format!("error: {}{tail}", shorten(title, room.max(16)))
        })
        .map(|l| fit(&l))
        .collect();
    let mut comps: Vec<&Comparison> = analysis.comparisons.iter().collect();
    comps.sort_by_key(|c| rank(c.verdict));
    // The pair of variants is said once when every comparison has it.
    let pairs: std::collections::BTreeSet<(&str, &str)> = comps
        .iter()
        .map(|c| (c.baseline.as_str(), c.variant.as_str()))
        .collect();
    let bases: std::collections::BTreeSet<&str> = pairs.iter().map(|p| p.0).collect();
    // What every comparison shares is said once, above them: the pair, the
    // benchmark, the settings that do not vary.
    let bench = comps
        .first()
        .map(|c| c.benchmark.as_str())
        .filter(|b| comps.iter().all(|c| c.benchmark == *b));
    let shared: Vec<&str> = comps
        .first()
        .map(|c| {
            c.params
                .split(',')
                .filter(|kv| !kv.is_empty())
                .filter(|kv| comps.iter().all(|o| o.params.split(',').any(|x| x == *kv)))
                .collect()
        })
        .unwrap_or_default();
    let pair = Pair {
        base: bases.len() > 1,
        variant: pairs.len() > 1,
        bench: bench.is_some(),
        shared: &shared,
    };
    let mut said: Vec<String> = Vec::new();
    match (pairs.first(), pair.variant, pair.base) {
        (Some((b, v)), false, _) => said.push(format!("{v} against {b}")),
        (Some((b, _)), true, false) => said.push(format!("against {b}")),
        _ => {}
    }
    if let Some(b) = bench {
        said.push(b.to_string());
    }
    if !shared.is_empty() {
        said.push(format!("[{}]", shared.join(",")));
    }
    if !said.is_empty() {
        lines.push(fit(&format!("{}:", said.join(", "))));
    }
    // Errors first, then as many comparisons as fit with a line to count
    // the rest; the errors are never the part left out.
    let room = MAX_LINES - lines.len();
    let shown_errors = errors.len().min(room.saturating_sub(1));
    let room = room - shown_errors;
    let (shown, left) = if comps.len() <= room {
        (comps.len(), 0)
    } else {
        (room.saturating_sub(1), comps.len() - room.saturating_sub(1))
    };
    lines.extend(errors.iter().take(shown_errors).cloned());
    lines.extend(comps.iter().take(shown).map(|c| comparison_line(c, pair)));
    let hidden_errors = errors.len() - shown_errors;
    if left > 0 || hidden_errors > 0 {
        let mut more = Vec::new();
        if left > 0 {
            more.push(counted(left, "more comparison"));
        }
        if hidden_errors > 0 {
            more.push(counted(hidden_errors, "more error"));
        }
        lines.push(fit(&format!("… {} (see the full report)", more.join(", "))));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Verdict counts, the ones that say something first.
fn headline(a: &Analysis) -> String {
    let n = a.comparisons.len();
    let mut parts: Vec<String> = crate::report::view::verdict_counts(a)
        .into_iter()
        .filter(|&(_, k)| k > 0)
        .map(|(v, k)| format!("{k} {}", v.as_str()))
        .collect();
    let errors = a
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    if errors > 0 {
        parts.push(counted(errors, "error"));
    }
    format!("{}: {}", counted(n, "comparison"), parts.join(", "))
}

/// Regressions first, then improvements, then what could not decide.
fn rank(v: Verdict) -> usize {
    crate::report::view::VERDICT_ORDER
        .iter()
        .position(|&o| o == v)
        .unwrap_or(usize::MAX)
}

/// What a comparison line leaves out, having been said above the lines.
#[derive(Clone, Copy)]
struct Pair<'a> {
    /// Show the baseline (the comparisons have several).
    base: bool,
    /// Show the variant (the comparisons have several).
    variant: bool,
    /// The benchmark is every comparison's.
    bench: bool,
    /// Settings every comparison has.
    shared: &'a [&'a str],
}

/// `hackbench [groups=4] time: -7.1% [-18.2%, +22.8%] q 0.85 inconclusive`,
/// with `→ hog` (or `base → hog`) when the comparisons differ in them; the
/// interval goes before the figures are cut, and the name is shortened to
/// keep them whole.
fn comparison_line(c: &Comparison, pair: Pair<'_>) -> String {
    let ci = match (c.ci_low_pct, c.ci_high_pct) {
        (Some(l), Some(h)) => format!(" [{}, {}]", pct(l), pct(h)),
        _ => String::new(),
    };
    let p = match (c.q_value, c.p_value) {
        (Some(q), _) => format!(" q {}", pvalue(Some(q))),
        (None, Some(p)) => format!(" p {}", pvalue(Some(p))),
        _ => String::new(),
    };
    let names = match (pair.base, pair.variant) {
        (true, _) => format!(
            " {} → {}",
            shorten(&c.baseline, 12),
            shorten(&c.variant, 12)
        ),
        (false, true) => format!(" → {}", shorten(&c.variant, 16)),
        _ => String::new(),
    };
    // The metric says more than the settings: the settings are cut first.
    let mut what = if pair.bench {
        String::new()
    } else {
        c.benchmark.clone()
    };
    if !c.metric.is_empty() && c.metric != c.benchmark {
        if !what.is_empty() {
            what.push(' ');
        }
        what.push_str(&c.metric);
    }
    let own: Vec<&str> = c
        .params
        .split(',')
        .filter(|kv| !kv.is_empty() && !pair.shared.contains(kv))
        .collect();
    let params = if own.is_empty() {
        String::new()
    } else if what.is_empty() {
        format!("[{}]", own.join(","))
    } else {
        format!(" [{}]", own.join(","))
    };
    let change = pct(c.change_pct);
    let verdict = c.verdict.as_str();
    for figures in [
        format!(": {change}{ci}{p} {verdict}"),
        format!(": {change}{p} {verdict}"),
        format!(": {change} {verdict}"),
    ] {
        let room = WIDTH.saturating_sub(figures.chars().count() + names.chars().count());
        if room >= 16 {
            return format!("{}{names}{figures}", name_in(&what, &params, room));
        }
    }
    fit(&format!("{what}{params}{names}: {change} {verdict}"))
}

/// `what` and its `params` in `room` columns: the params shortened first
/// (down to `[…]`), then `what` itself.
fn name_in(what: &str, params: &str, room: usize) -> String {
    let w = what.chars().count();
    if w + params.chars().count() <= room {
        return format!("{what}{params}");
    }
    if params.is_empty() || w + 4 > room {
        return shorten(what, room);
    }
    // The values alone say which setting it is (`[1000]` for `[parameter=1000]`).
    let values: Vec<&str> = params
        .trim_start_matches(' ')
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|kv| kv.split_once('=').map_or(kv, |(_, v)| v))
        .collect();
    let lead = if params.starts_with(' ') { " " } else { "" };
    let short = format!("{lead}[{}]", values.join(","));
    if w + short.chars().count() <= room {
        return format!("{what}{short}");
    }
    let params = short.as_str();
    // `[` + kept + `…]` after the space, if any.
    let lead = if params.starts_with(' ') { " [" } else { "[" };
    let keep = room - w - lead.len() - 2;
    let inner: String = params[lead.len()..params.len() - 1]
        .chars()
        .take(keep)
        .collect();
    format!("{what}{lead}{inner}…]")
}

/// `text` cut to `width` columns with an ellipsis.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// A line cut to [`WIDTH`].
fn fit(line: &str) -> String {
    shorten(line, WIDTH)
}

/// The brief's [`Renderer`](super::renderer::Renderer); its first line
/// names the report by its title.
pub struct Brief;

impl super::renderer::Renderer for Brief {
    fn render(&self, r: &super::renderer::Report<'_>) -> crate::error::Result<Vec<u8>> {
        Ok(render(r.analysis, &r.ctx.title).into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_and_the_figures_kept() {
        let s = shorten("a-very-long-benchmark-name", 10);
        assert_eq!(s.chars().count(), 10);
        assert!(s.ends_with('…'));
        assert_eq!(shorten("short", 10), "short");
    }
}
