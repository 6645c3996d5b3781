//! The name and unit of a stressor's own ("miscellaneous") metric, split
//! out of the one phrase stress-ng prints for it, the same way for the
//! terminal and for the `-Y` YAML key made from that phrase.
//!
//! stress-ng writes the unit into the description, before or after the
//! name: `MB/sec read rate`, `MB per sec pipe write rate`, `nanosecs per
//! context switch (pipe method)`, `% sendto calls succeeded`,
//! `write64stoq MB per sec`, `sendto calls per sec`, `memory rate (MB per
//! sec)`, and ends the line with how the instances were combined
//! (`(geometic mean of 1 instances)`, `(average per stressor)`). YAML keys
//! are the same phrase lowercased with `-` for the blanks and `/` and the
//! brackets dropped (`mbsec-read-rate`). Reading both through one rule
//! gives the terminal and the YAML of one run the same metric names, so
//! the two join.

/// A byte unit as stress-ng spells it in a rate, in its canonical form.
fn byte_unit(word: &str) -> Option<&'static str> {
    Some(match word.to_ascii_lowercase().as_str() {
        "b" | "bytes" => "B",
        "kb" => "KB",
        "mb" => "MB",
        "gb" => "GB",
        "kib" => "KiB",
        "mib" => "MiB",
        "gib" => "GiB",
        _ => return None,
    })
}

/// A time unit that starts a `<unit> per <event>` phrase.
fn time_unit(word: &str) -> Option<&'static str> {
    Some(match word.to_ascii_lowercase().as_str() {
        "nanosecs" | "nanoseconds" | "nsecs" | "ns" => "ns",
        "microsecs" | "microseconds" | "usecs" | "us" => "us",
        "millisecs" | "milliseconds" | "msecs" | "ms" => "ms",
        "secs" | "seconds" => "s",
        _ => return None,
    })
}

/// `MB/sec` (terminal) or `mbsec` (its YAML key): a byte rate in one word.
fn byte_rate(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    let head = lower
        .strip_suffix("/sec")
        .or_else(|| lower.strip_suffix("/s"))
        .or_else(|| lower.strip_suffix("sec"))?;
    Some(match byte_unit(head)? {
        "B" => "B/s",
        "KB" => "KB/s",
        "MB" => "MB/s",
        "GB" => "GB/s",
        "KiB" => "KiB/s",
        "MiB" => "MiB/s",
        _ => "GiB/s",
    })
}

fn is_sec(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "sec" | "second" | "s" | "secs"
    )
}

/// Cuts the closing `(geometic mean of 128 instances)`, `(harmonic mean
/// …)` or `(average per stressor)`: how the instances' values were
/// combined, not part of what was measured.
fn without_combination(text: &str) -> &str {
    let t = text.trim();
    if let Some(open) = t.rfind('(') {
        let inside = t[open + 1..].trim_end_matches(')').trim_start();
        let combination = ["geomet", "harmonic", "arithmetic", "average", "mean"]
            .iter()
            .any(|w| inside.starts_with(w));
        if t.ends_with(')') && combination {
            return t[..open].trim_end();
        }
    }
    t
}

/// The metric name and unit of a terminal miscellaneous metric, from the
/// text after its value.
pub(super) fn misc_metric(text: &str) -> (String, String) {
    let words: Vec<&str> = without_combination(text)
        .split_whitespace()
        .map(|w| w.trim_matches(['(', ')']))
        .filter(|w| !w.is_empty())
        .collect();
    split(&words)
}

/// The metric name and unit of a YAML key of a stressor's own metric.
pub(super) fn yaml_metric(key: &str) -> (String, String) {
    let words: Vec<&str> = key.split('-').filter(|w| !w.is_empty()).collect();
    split(&words)
}

/// The unit stated before or after the name, and the name without it.
fn split(words: &[&str]) -> (String, String) {
    let join = |w: &[&str]| w.join(" ");
    match words {
        // `nanosecs per context switch`
        [t, per, rest @ ..] if per.eq_ignore_ascii_case("per") && !rest.is_empty() => {
            if let Some(u) = time_unit(t) {
                return (join(rest), u.to_string());
            }
        }
        _ => {}
    }
    match words {
        // `MB/sec read rate`, `mbsec read rate`
        [w, rest @ ..] if !rest.is_empty() && byte_rate(w).is_some() => {
            return (join(rest), byte_rate(w).unwrap_or_default().to_string());
        }
        // `MB per sec pipe write rate`
        [b, per, s, rest @ ..]
            if !rest.is_empty()
                && per.eq_ignore_ascii_case("per")
                && is_sec(s)
                && byte_unit(b).is_some() =>
        {
            return (join(rest), format!("{}/s", byte_unit(b).unwrap_or("B")));
        }
        // `% sendto calls succeeded`
        ["%", rest @ ..] if !rest.is_empty() => return (join(rest), "%".into()),
        _ => {}
    }
    let n = words.len();
    // `write128 MB/sec`
    if n >= 2 {
        if let Some(u) = byte_rate(words[n - 1]) {
            return (join(&words[..n - 1]), u.to_string());
        }
    }
    // `write64stoq MB per sec`, `sendto calls per sec`, `cache ops per second`
    if n >= 3 && words[n - 2].eq_ignore_ascii_case("per") && is_sec(words[n - 1]) {
        let thing = words[n - 3];
        if let Some(b) = byte_unit(thing) {
            if n > 3 {
                return (join(&words[..n - 3]), format!("{b}/s"));
            }
        }
        return (join(&words[..n - 2]), format!("{thing}/s"));
    }
    (join(words), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> (String, String) {
        misc_metric(text)
    }

    fn p(name: &str, unit: &str) -> (String, String) {
        (name.to_string(), unit.to_string())
    }

    #[test]
    fn the_unit_leaves_the_name_wherever_stress_ng_put_it() {
        let g = " (geometic mean of 1 instances)";
        assert_eq!(m(&format!("MB/sec read rate{g}")), p("read rate", "MB/s"));
        assert_eq!(
            m(&format!("MB/sec read/write combined rate{g}")),
            p("read/write combined rate", "MB/s")
        );
        assert_eq!(
            m(&format!("MB per sec pipe write rate{g}")),
            p("pipe write rate", "MB/s")
        );
        assert_eq!(
            m(&format!("write64stoq MB per sec{g}")),
            p("write64stoq", "MB/s")
        );
        assert_eq!(
            m("write128 MB/sec (average per stressor)"),
            p("write128", "MB/s")
        );
        assert_eq!(
            m("MB per sec sendto rate (geometric mean of 128 instances)"),
            p("sendto rate", "MB/s")
        );
        assert_eq!(
            m("sendto calls per sec (geometric mean of 128 instances)"),
            p("sendto calls", "calls/s")
        );
        assert_eq!(
            m("% sendto calls succeeded (geometric mean of 128 instances)"),
            p("sendto calls succeeded", "%")
        );
        assert_eq!(
            m(&format!("cache ops per second{g}")),
            p("cache ops", "ops/s")
        );
        assert_eq!(
            m(&format!("nanosecs per context switch (pipe method){g}")),
            p("context switch pipe method", "ns")
        );
        assert_eq!(
            m("nanoseconds per longjmp call (average per stressor)"),
            p("longjmp call", "ns")
        );
        assert_eq!(
            m("memory rate (MB per sec) (average per stressor)"),
            p("memory rate", "MB/s")
        );
        assert_eq!(
            m("context switches per bogo op (average per stressor)"),
            p("context switches per bogo op", "")
        );
    }

    #[test]
    fn yaml_keys_give_the_terminal_s_names() {
        assert_eq!(yaml_metric("mbsec-read-rate"), p("read rate", "MB/s"));
        assert_eq!(
            yaml_metric("mbsec-readwrite-combined-rate"),
            p("readwrite combined rate", "MB/s")
        );
        assert_eq!(yaml_metric("cache-ops-per-second"), p("cache ops", "ops/s"));
        assert_eq!(
            yaml_metric("nanosecs-per-context-switch-pipe-method"),
            p("context switch pipe method", "ns")
        );
        assert_eq!(
            yaml_metric("write64stoq-mb-per-sec"),
            p("write64stoq", "MB/s")
        );
    }
}
