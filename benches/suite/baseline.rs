//! This run's figures next to those of the run committed in
//! `benches/RESULTS.md`: a figure that moved by more than the machine's
//! noise is named, better or worse, so that none gets worse unnoticed.

/// One printed figure: `name value unit`.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

impl Figure {
    /// A figure from one line of the suite's output, `name value unit ratio`
    /// (comment lines and anything else give `None`).
    pub fn parse(line: &str) -> Option<Figure> {
        let mut it = line.split_whitespace();
        let name = it.next().filter(|n| !n.starts_with('#'))?;
        let value = it.next()?.parse::<f64>().ok().filter(|v| v.is_finite())?;
        let unit = it.next()?;
        let _ratio = it.next()?;
        it.next().is_none().then(|| Figure {
            name: name.to_string(),
            value,
            unit: unit.to_string(),
        })
    }
}

/// Which way a figure is better for patchperf.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Better {
    Higher,
    Lower,
    /// Not patchperf's own (a floor, a peer, polars' frame size): shown,
    /// never flagged.
    Context,
}

fn better(name: &str) -> Better {
    if name.contains(".floor_") || name.contains(".peer_") || name.ends_with(".table_in_memory") {
        Better::Context
    } else if name.ends_with(".throughput")
        || name.ends_with(".throughput_no_output")
        || name.ends_with(".rows_per_s")
    {
        Better::Higher
    } else {
        // Times, memory, sizes.
        Better::Lower
    }
}

/// The committed run in `RESULTS.md`: the heading of the first `## Run`
/// section and the figures of the first fenced block under it.
pub fn committed(results_md: &str) -> Option<(String, Vec<Figure>)> {
    let start = results_md.find("\n## Run")? + 1;
    let section = &results_md[start..];
    let heading = section.lines().next()?.trim_start_matches('#').trim();
    let fence = section.find("\n```")?;
    let block = &section[fence + 4..];
    let body = &block[block.find('\n')? + 1..];
    let end = body.find("\n```").unwrap_or(body.len());
    let figures = body[..end].lines().filter_map(Figure::parse).collect();
    Some((heading.to_string(), figures))
}

/// Comment lines comparing `now` with `before`, figure by figure where both
/// have it in the same unit: changes beyond `noise_pct` are listed as better
/// or worse for patchperf (context figures as moved), then a count.
pub fn changes(now: &[Figure], before: &[Figure], noise_pct: f64) -> Vec<String> {
    let mut out = Vec::new();
    let (mut compared, mut worse, mut improved) = (0, 0, 0);
    for f in now {
        let Some(b) = before.iter().find(|b| b.name == f.name) else {
            continue;
        };
        if b.unit != f.unit || b.value == 0.0 {
            continue;
        }
        compared += 1;
        let pct = (f.value / b.value - 1.0) * 100.0;
        if pct.abs() <= noise_pct {
            continue;
        }
        let verdict = match (better(&f.name), pct > 0.0) {
            (Better::Context, _) => "moved (not patchperf's figure)",
            (Better::Higher, true) | (Better::Lower, false) => {
                improved += 1;
                "better"
            }
            (Better::Higher, false) | (Better::Lower, true) => {
                worse += 1;
                "WORSE"
            }
        };
        out.push(format!(
            "# {verdict}: {} {:.3} -> {:.3} {} ({pct:+.1}%)",
            f.name, b.value, f.value, f.unit
        ));
    }
    out.push(format!(
        "# {compared} figures compared with the committed run: {worse} worse and {improved} \
         better by more than {noise_pct}%"
    ));
    out
}
