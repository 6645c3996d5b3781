//! glmark2, the OpenGL (ES) benchmark GPU driver work quotes: a line per
//! scene, `[build] use-vbo=false: FPS: 513 FrameTime: 1.952 ms` (its
//! options `k=v` joined by `:`, or `<default>`), then `glmark2 Score: 296`.
//!
//! Benchmark `glmark2 <scene>`, parameters the scene's options; metrics
//! `FPS` and `FrameTime` (ms), each a `sample`; the score is benchmark
//! `glmark2`, metric `score`. A scene line a mail's writer wrapped by hand
//! (`… FrameTime:` then `   21.990 ms`, or an option cut in two) is joined
//! with the indented lines that complete it.

use crate::error::Result;
use crate::ingest::shared::logscan::{has, lazy_re, num, Params};
use crate::ingest::shared::row::Row;
use crate::ingest::{Confidence, Format, Parsed, Source};

lazy_re!(
    SCENE,
    r"^\[([\w-]+)\]\s*(.*?):\s*FPS:\s*(\d+(?:\.\d+)?)\s*FrameTime:\s*(\d+(?:\.\d+)?)\s*ms$"
);
lazy_re!(OPENS, r"^\[[\w-]+\]\s*\S");
lazy_re!(SCORE, r"^glmark2 Score:\s*(\d+)$");

/// The glmark2 importer.
pub struct Glmark2;

/// How many lines a hand-wrapped scene line may continue on.
const MAX_CONTINUATIONS: usize = 2;

/// The scene lines of `src`: each with its first line and its text, the
/// lines it continues on joined to it; and the lines so joined.
fn scenes(src: &Source) -> (Vec<(u32, String)>, Vec<u32>) {
    let lines = &src.lines;
    let (mut out, mut joined) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].text.trim();
        if SCENE.is_match(t) {
            out.push((lines[i].number, t.to_string()));
        } else if OPENS.is_match(t) {
            // A continuation is indented and opens no scene of its own.
            let mut text = t.to_string();
            for k in 1..=MAX_CONTINUATIONS {
                let Some(next) = lines.get(i + k) else { break };
                let n = next.text.trim();
                if n.is_empty() || !next.text.starts_with([' ', '\t']) || OPENS.is_match(n) {
                    break;
                }
                text.push_str(n);
                if SCENE.is_match(&text) {
                    out.push((lines[i].number, text.clone()));
                    joined.extend(lines[i + 1..=i + k].iter().map(|l| l.number));
                    i += k;
                    break;
                }
            }
        }
        i += 1;
    }
    (out, joined)
}

impl Format for Glmark2 {
    fn name(&self) -> &'static str {
        "glmark2"
    }

    fn description(&self) -> &'static str {
        "glmark2: `[scene] options: FPS: N FrameTime: X ms` lines and `glmark2 Score: N`"
    }

    fn detect(&self, src: &Source) -> Confidence {
        // Every input is offered to every detector: a scene line holds
        // `FPS:`, and an input without one is ruled out by one search.
        if !has(src, "FPS:") {
            return 0;
        }
        let scene_lines = src
            .lines
            .iter()
            .take(5000)
            .filter(|l| SCENE.is_match(l.text.trim()))
            .count();
        let score = src
            .lines
            .iter()
            .take(5000)
            .any(|l| SCORE.is_match(l.text.trim()));
        if scene_lines >= 2 || (score && scene_lines >= 1) {
            95
        } else {
            0
        }
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        let mut out = Vec::new();
        let (found, consumed) = scenes(src);
        for (n, text) in found {
            let Some(c) = SCENE.captures(&text) else {
                continue;
            };
            let mut params = Params::default();
            for option in c[2].split(':').filter(|o| o.contains('=')) {
                if let Some((k, v)) = option.split_once('=') {
                    params.set(k.trim(), v);
                }
            }
            let bench = format!("glmark2 {}", &c[1]);
            for (metric, unit, v) in [("FPS", "", &c[3]), ("FrameTime", "ms", &c[4])] {
                out.push(
                    Row::at(src, n)
                        .benchmark(&bench)
                        .params(&params.render())
                        .metric(metric)
                        .unit(unit)
                        .sample(num(src, n, v, metric)?),
                );
            }
        }
        for l in &src.lines {
            if let Some(c) = SCORE.captures(l.text.trim()) {
                let v = num(src, l.number, &c[1], "score")?;
                out.push(
                    Row::at(src, l.number)
                        .benchmark("glmark2")
                        .metric("score")
                        .unit("")
                        .sample(v),
                );
            }
        }
        Parsed::found(
            src,
            out,
            consumed,
            Vec::new(),
            "no glmark2 scene line (`[scene] options: FPS: N FrameTime: X ms`) or score",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_with_options_and_wrapped_by_hand_and_the_score() {
        // Lines of a cover letter's glmark2-es2-drm run, quoted, some
        // wrapped by its writer.
        let text = "> > [build] use-vbo=false: FPS: 513 FrameTime: 1.952 ms\n\
                    > > [effect2d] kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;: FPS: 46 FrameTime:\n\
                    > >    21.990 ms\n\
                    > > [buffer] columns=200:interleave=false:update-dispersion=0.9:update-fraction\n\
                    > >    =0.5:update-method=map: FPS: 81 FrameTime: 12.447 ms\n\
                    > > [function] fragment-complexity=medium:fragment-steps=5: FPS: 227\n\
                    > >    FrameTime: 4.417 ms\n\
                    > > [jellyfish] <default>: FPS: 114 FrameTime: 8.842 ms\n\
                    > >                                    glmark2 Score: 296\n";
        let src = Source::from_text("g.txt", text);
        assert_eq!(Glmark2.detect(&src), 95);
        let p = Glmark2.parse_accounted(&src).unwrap();
        let got: Vec<(u32, &str, &str, &str, f64)> = p
            .observations
            .iter()
            .map(|o| {
                (
                    o.line,
                    o.benchmark.as_str(),
                    o.params.as_str(),
                    o.metric.as_str(),
                    o.value,
                )
            })
            .collect();
        let buffer = "columns=200,interleave=false,update-dispersion=0.9,update-fraction=0.5,update-method=map";
        let function = "fragment-complexity=medium,fragment-steps=5";
        assert_eq!(got[0], (1, "glmark2 build", "use-vbo=false", "FPS", 513.0));
        assert_eq!(
            got[1],
            (1, "glmark2 build", "use-vbo=false", "FrameTime", 1.952)
        );
        assert_eq!(got[3].4, 21.990);
        assert_eq!(got[4], (4, "glmark2 buffer", buffer, "FPS", 81.0));
        assert_eq!(
            got[7],
            (6, "glmark2 function", function, "FrameTime", 4.417)
        );
        assert_eq!(got[8], (8, "glmark2 jellyfish", "", "FPS", 114.0));
        assert_eq!(got[10], (9, "glmark2", "", "score", 296.0));
        assert_eq!(got.len(), 11);
        // The continuation lines are the scene's.
        assert_eq!(p.consumed, [3, 5, 7]);
    }

    #[test]
    fn a_whole_run_gives_every_scene_and_the_score() {
        let p = crate::ingest::parse_file(
            &Glmark2,
            "tests/data/harness/glmark2/panfrost-es2-drm-wrapped.txt",
        );
        // 33 scenes, two values each, and the score.
        assert_eq!(p.observations.len(), 33 * 2 + 1);
        let fps: Vec<f64> = p
            .observations
            .iter()
            .filter(|o| o.benchmark == "glmark2 loop" && o.metric == "FPS")
            .map(|o| o.value)
            .collect();
        assert_eq!(fps, [475.0, 474.0, 226.0]);
        let score = p.observations.last().unwrap();
        assert_eq!((score.metric.as_str(), score.value), ("score", 296.0));
    }
}
