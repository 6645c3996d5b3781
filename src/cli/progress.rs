//! Progress on stderr for work that takes more than a second: a spinner
//! naming the stage, and while inputs are read, the bytes read out of those
//! planned and the rate. Nothing is drawn off a terminal, under `--quiet`
//! or in CI (see [`super::global::progress_allowed`]); nothing at all for
//! work that ends within the first second.

use crate::ingest::progress::{observe, Observer, Observing};
use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How long work runs before its progress appears.
const DELAY: Duration = Duration::from_secs(1);

/// One stage's progress line; cleared when dropped.
pub struct Activity {
    bar: ProgressBar,
    /// Whether progress may be drawn at all (a terminal, not `--quiet`).
    drawn: bool,
    stop: Option<mpsc::Sender<()>>,
    reveal: Option<std::thread::JoinHandle<()>>,
    _observing: Option<Observing>,
}

impl Activity {
    /// A spinner with `label`, shown after [`DELAY`] if still running.
    pub fn start(label: impl Into<String>) -> Activity {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(label.into());
        if !super::global::progress_allowed() {
            return Activity {
                bar,
                drawn: false,
                stop: None,
                reveal: None,
                _observing: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let reveal = std::thread::spawn(move || {
            // Sender dropped or a message: the work ended before the delay.
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(DELAY) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Activity {
            bar,
            drawn: true,
            stop: Some(tx),
            reveal: Some(reveal),
            _observing: None,
        }
    }

    /// A spinner that also shows the bytes the library reads while it lives.
    pub fn reading(label: impl Into<String>) -> Activity {
        let label = label.into();
        let mut a = Activity::start(label.clone());
        if a.drawn {
            let watcher = Arc::new(Reading {
                bar: a.bar.clone(),
                label,
                planned: AtomicU64::new(0),
                read: AtomicU64::new(0),
            });
            a._observing = Some(observe(watcher));
        }
        a
    }

    /// Names the stage now under way.
    pub fn stage(&self, label: impl Into<String>) {
        self.bar.set_message(label.into());
    }
}

impl Drop for Activity {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(r) = self.reveal.take() {
            let _ = r.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Turns the library's byte counts into the spinner's message.
struct Reading {
    bar: ProgressBar,
    label: String,
    planned: AtomicU64,
    read: AtomicU64,
}

impl Reading {
    fn show(&self) {
        let (read, planned) = (
            self.read.load(Ordering::Relaxed),
            self.planned.load(Ordering::Relaxed),
        );
        let secs = self.bar.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{}: {} of {} ({}/s)",
            self.label,
            HumanBytes(read),
            HumanBytes(planned),
            HumanBytes((read as f64 / secs) as u64)
        ));
    }
}

impl Observer for Reading {
    fn planned(&self, bytes: u64) {
        self.planned.fetch_add(bytes, Ordering::Relaxed);
        self.show();
    }
    fn read(&self, bytes: u64) {
        self.read.fetch_add(bytes, Ordering::Relaxed);
        self.show();
    }
}
