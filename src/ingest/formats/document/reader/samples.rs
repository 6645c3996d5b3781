//! `key: value` lines, `time` lines and caret units: samples and stated statistics, grouped into runs.

use super::super::lines::{self, Kind};
use super::super::table::{self, BlockNames};
use super::*;
use crate::model::{Observation, Stat};
use std::collections::HashMap;

impl<'a> Reader<'a> {
    /// `key: value` lines, bash `time` lines and caret unit marks.
    pub(super) fn samples(
        &mut self,
        part: &[&Cl],
        table_follows: bool,
        n_for_table: &mut Option<(f64, u32)>,
    ) {
        let depth = part[0].line.quote_depth;
        let names = self.resolve(depth);
        let path = self.src.path.clone();
        let start = self.out.len();
        let mut multi_keys: Option<Vec<String>> = None;
        let mut caret_units: HashMap<String, String> = HashMap::new();
        let mut prev_pairs: Option<&Vec<lines::Pair>> = None;
        let mut first_metric: Option<(String, String)> = None;
        // A run of lone `key: value` lines is a counter dump (`reqs: 17056`,
        // `hits: 37`, `groups_considered: 9472`): every line a value, though
        // one alone would be an attribute (`CPU family: 6`).
        // Keys of a dump are names (`groups_scanned`), not row cells
        // before a ratio (`1  7000  8000  10:1`).
        let named = |k: &str| k.starts_with(|c: char| c.is_alphabetic() || c == '_');
        let dump = part
            .iter()
            .filter(|c| matches!(&c.kind, Kind::Pairs(ps) if ps.len() == 1 && named(&ps[0].key)))
            .count()
            >= 3;
        // Sides the change lines do not name may be named by the heading
        // above them (`64B:  skb-mode -> native-mode`), which then says
        // what they were measured at before its colon: one heading for the
        // whole part.
        let heading_sides = part
            .iter()
            .any(|c| matches!(c.kind, Kind::Change(_)))
            .then(|| lines::heading_sides(&names.benchmark))
            .flatten();
        // Among lines of changes (`per-task: 674 -> 849`), a lone `key:
        // value` (`5.12-rc1: 667`) is a row measured on the first side
        // only, the baseline, not an attribute.
        let changes = part
            .iter()
            .filter(|c| matches!(c.kind, Kind::Change(_)))
            .count();
        for c in part {
            let number = c.line.number;
            let sample = |metric: &str, unit: &str, value: f64| {
                let mut o =
                    Observation::new(names.benchmark.clone(), metric, unit, Stat::Sample, value)
                        .at_line(number)
                        .with_variant(names.variant.clone());
                o.source = path.as_str().into();
                o
            };
            match &c.kind {
                Kind::Time(metric, v) => {
                    first_metric.get_or_insert_with(|| (metric.clone(), "s".into()));
                    self.out.push(sample(metric, "s", *v));
                }
                Kind::Pairs(ps) => {
                    let stat = (ps.len() == 1)
                        .then(|| Stat::parse_name(&ps[0].key))
                        .flatten();
                    match stat {
                        None if ps.len() == 1 && changes >= 2 => {
                            let before = heading_sides
                                .as_ref()
                                .map_or("before".to_string(), |(_, a, _)| a.clone());
                            let mut o = sample(&ps[0].key.to_lowercase(), &ps[0].unit, ps[0].value);
                            o.variant = join_variant(&names.variant, &before).into();
                            self.out.push(o);
                        }
                        // A lone `CPU family: 6` is an attribute, not a run.
                        None if ps.len() == 1 && !dump && !lines::is_measurement(&ps[0]) => {}
                        Some(Stat::Sample) | None => {
                            let keys: Vec<String> = ps
                                .iter()
                                .filter(|p| !p.key.starts_with('>'))
                                .map(|p| p.key.to_lowercase())
                                .collect();
                            if ps.len() > 1 {
                                multi_keys.get_or_insert(keys);
                            }
                            for p in ps.iter().filter(|p| !p.key.starts_with('>')) {
                                let unit = if p.unit.is_empty() && p.key.ends_with("/s") {
                                    "/s"
                                } else {
                                    &p.unit
                                };
                                let metric = p.key.to_lowercase();
                                first_metric
                                    .get_or_insert_with(|| (metric.clone(), unit.to_string()));
                                self.out.push(sample(&metric, unit, p.value));
                            }
                            prev_pairs = Some(ps);
                        }
                        Some(Stat::N) if table_follows => {
                            *n_for_table = Some((ps[0].value, number))
                        }
                        Some(stat) => self.stated(stat, &ps[0], number, &names),
                    }
                }
                Kind::Change(ch) => {
                    let metric = if ch.label.is_empty() {
                        // `554 IOPS → 535 IOPS`: what the unit counts.
                        match table::metric_from_unit(&ch.unit) {
                            m if m == "value" && !ch.unit.is_empty() => ch.unit.to_lowercase(),
                            m => m,
                        }
                    } else {
                        ch.label.to_lowercase()
                    };
                    let (context, (before, after)) = match (ch.names.clone(), &heading_sides) {
                        (Some(n), _) => (None, n),
                        (None, Some((c, a, b))) => {
                            (Some(c).filter(|c| !c.is_empty()), (a.clone(), b.clone()))
                        }
                        (None, None) => (None, ("before".into(), "after".into())),
                    };
                    for (name, value) in [(before, ch.before), (after, ch.after)] {
                        let mut o = sample(&metric, &ch.unit, value);
                        o.variant = join_variant(&names.variant, &name).into();
                        if let Some(c) = &context {
                            o.benchmark = c.as_str().into();
                        }
                        self.out.push(o);
                    }
                }
                Kind::Carets(marks) => {
                    if let Some(prev) = prev_pairs {
                        for (a, b, unit) in marks {
                            if let Some(p) = prev.iter().find(|p| p.span.0 < *b && *a < p.span.1) {
                                caret_units.insert(p.key.to_lowercase(), unit.clone());
                            }
                        }
                    }
                }
                _ => {}
            }
            // A summary line may follow its samples within the paragraph.
            if let (Some((metric, unit)), false) = (
                &first_metric,
                self.last.as_ref().is_some_and(|l| l.start == start),
            ) {
                self.last = Some(LastSamples {
                    label_seq: self.label_seq,
                    start,
                    benchmark: names.benchmark.clone(),
                    variant: names.variant.clone(),
                    metric: metric.clone(),
                    unit: unit.clone(),
                });
            }
        }
        for o in &mut self.out[start..] {
            if o.unit.is_empty() {
                if let Some(u) = caret_units.get(o.metric.as_str()) {
                    o.unit = u.into();
                }
            }
        }
        if let Some(keys) = multi_keys {
            let label = self
                .label
                .as_ref()
                .map(|h| h.text.clone())
                .unwrap_or_default();
            self.blocks.push(SampleBlock {
                range: start..self.out.len(),
                keys,
                label,
            });
        }
    }

    /// A stated summary (`avg : 33.94s`): of the samples above it under the
    /// same label, or of the block itself when there are none.
    pub(super) fn stated(&mut self, stat: Stat, p: &lines::Pair, number: u32, names: &BlockNames) {
        let (benchmark, variant, metric, unit) = match &self.last {
            Some(l) if l.label_seq == self.label_seq => {
                let unit = if p.unit.is_empty() {
                    l.unit.clone()
                } else {
                    p.unit.clone()
                };
                (
                    l.benchmark.clone(),
                    l.variant.clone(),
                    l.metric.clone(),
                    unit,
                )
            }
            _ => (
                names.benchmark.clone(),
                names.variant.clone(),
                table::metric_from_unit(&p.unit),
                p.unit.clone(),
            ),
        };
        let unit = if stat == Stat::N { String::new() } else { unit };
        let mut o = Observation::new(benchmark, metric, &unit, stat, p.value)
            .at_line(number)
            .with_variant(variant);
        o.source = self.src.path.as_str().into();
        self.out.push(o);
    }

    /// Consecutive blocks of the same multi-key sample lines under different
    /// labels are one benchmark run on several systems: the labels become
    /// variants and the first key names the benchmark (`pert/s` → `pert`).
    /// Units one block shows (a caret mark, a suffix) hold for all of them.
    pub(super) fn group_sample_blocks(&mut self) {
        let mut i = 0;
        while i < self.blocks.len() {
            let mut j = i + 1;
            while j < self.blocks.len() && self.blocks[j].keys == self.blocks[i].keys {
                j += 1;
            }
            let group = &self.blocks[i..j];
            let mut units: HashMap<String, String> = HashMap::new();
            for b in group {
                for o in &self.out[b.range.clone()] {
                    if !o.unit.is_empty() {
                        units
                            .entry(o.metric.to_string())
                            .or_insert_with(|| o.unit.to_string());
                    }
                }
            }
            // min/max/avg of one line share a unit.
            let stat_units: Vec<&String> = units
                .iter()
                .filter(|(k, _)| is_stat_key(k))
                .map(|(_, u)| u)
                .collect();
            let shared = stat_units
                .first()
                .filter(|u| stat_units.iter().all(|v| v == *u))
                .map(|u| (*u).clone());
            let distinct_labels = {
                let mut l: Vec<&str> = group.iter().map(|b| b.label.as_str()).collect();
                l.dedup();
                l.len()
            };
            let bench = group[0].keys.first().map(|k| key_stem(k));
            for b in group {
                for o in &mut self.out[b.range.clone()] {
                    if o.unit.is_empty() {
                        if let Some(u) = units.get(o.metric.as_str()) {
                            o.unit = u.into();
                        } else if let (true, Some(u)) = (is_stat_key(&o.metric), &shared) {
                            o.unit = u.into();
                        }
                    }
                    if group.len() > 1 && distinct_labels > 1 {
                        o.variant = b.label.as_str().into();
                        if let Some(bench) = &bench {
                            o.benchmark = bench.into();
                        }
                    }
                }
            }
            i = j;
        }
    }
}

/// The variant of one side of a change: its name, after the block's own
/// variant when a heading gave one (`MPWQE on / after`).
fn join_variant(block: &str, side: &str) -> String {
    if block.is_empty() {
        side.to_string()
    } else {
        format!("{block} / {side}")
    }
}
