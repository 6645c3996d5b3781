//! How far reading has come, for whoever draws it: the command line installs
//! an [`Observer`] for the length of a command, and every [`ingest`] or
//! [`ingest_each`] call reports to it the bytes it plans to read and the
//! bytes of each input (or piece of a large one) it has read. The library
//! itself never draws anything.
//!
//! [`ingest`]: crate::ingest::ingest
//! [`ingest_each`]: crate::ingest::ingest_each

use std::sync::{Arc, RwLock};

/// Receives reading progress; called from any thread of the pool.
pub trait Observer: Send + Sync {
    /// A call is about to read this many more bytes.
    fn planned(&self, bytes: u64);
    /// An input or a piece of one of this many bytes has been read.
    fn read(&self, bytes: u64);
}

static OBSERVER: RwLock<Option<Arc<dyn Observer>>> = RwLock::new(None);

/// Keeps an observer installed; dropping it removes the observer.
#[must_use = "the observer is removed when the guard is dropped"]
pub struct Observing(());

impl Drop for Observing {
    fn drop(&mut self) {
        if let Ok(mut o) = OBSERVER.write() {
            *o = None;
        }
    }
}

/// Installs `observer` (replacing any other) until the guard is dropped.
pub fn observe(observer: Arc<dyn Observer>) -> Observing {
    if let Ok(mut o) = OBSERVER.write() {
        *o = Some(observer);
    }
    Observing(())
}

fn with(f: impl FnOnce(&dyn Observer)) {
    if let Ok(o) = OBSERVER.read() {
        if let Some(o) = o.as_deref() {
            f(o);
        }
    }
}

pub(crate) fn planned(bytes: u64) {
    with(|o| o.planned(bytes));
}

pub(crate) fn read(bytes: u64) {
    with(|o| o.read(bytes));
}
