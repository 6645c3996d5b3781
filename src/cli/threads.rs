//! How many threads a command runs on.
//!
//! A `compare` of two small files is over in two or three milliseconds.
//! A second thread costs a good part of that to start (and to fault in the
//! fresh memory its allocator heap takes), and the work it could share is
//! too small to split: on two hyperfine files of 3 commands × 30 runs, one
//! thread took 2.4 ms and two 2.9 ms (p10 of 40 runs each, in turn). So
//! inputs that are a few small files are read and analysed on the calling
//! thread alone; anything else (a folder, a glob, larger files, a study)
//! gets a thread per core.

use std::path::Path;

/// Inputs that are regular files holding together fewer bytes than this run
/// on one thread. 64 KiB of text is at most a few thousand values: a
/// millisecond or two of work, which a second thread would not shorten by
/// as much as it costs to start.
pub const SMALL_INPUT_BYTES: u64 = 64 * 1024;

/// Whether `paths` are all regular files that together hold fewer than
/// [`SMALL_INPUT_BYTES`]. A folder, a glob or a path that cannot be read
/// counts as large: finding out how much it holds would cost more than the
/// choice saves.
pub fn small_inputs<P: AsRef<Path>>(paths: &[P]) -> bool {
    let mut bytes = 0u64;
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() => bytes += m.len(),
            _ => return false,
        }
        if bytes >= SMALL_INPUT_BYTES {
            return false;
        }
    }
    true
}

/// Builds rayon's global pool with the calling thread as one of its workers
/// (so that on n cores n − 1 threads are started, not n): one thread in
/// all when `alone`, else as many as rayon would use (`RAYON_NUM_THREADS`,
/// or one per core). A pool that exists already is left as it is.
pub fn start_pool(alone: bool) {
    let mut builder = rayon::ThreadPoolBuilder::new().use_current_thread();
    // A thread count the user asked for is kept.
    if alone && std::env::var_os("RAYON_NUM_THREADS").is_none() {
        builder = builder.num_threads(1);
    }
    let _ = builder.build_global();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_small_files_are_small_and_anything_else_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        let b = dir.path().join("b.json");
        std::fs::write(&a, vec![b'x'; 1000]).unwrap();
        std::fs::write(&b, vec![b'x'; 2000]).unwrap();
        assert!(small_inputs(&[&a, &b]));
        assert!(small_inputs::<&Path>(&[]));
        // Together at the limit: large.
        std::fs::write(&b, vec![b'x'; SMALL_INPUT_BYTES as usize - 1000]).unwrap();
        assert!(!small_inputs(&[&a, &b]));
        assert!(small_inputs(&[&b]));
        // A folder, a glob, a missing file.
        assert!(!small_inputs(&[dir.path()]));
        assert!(!small_inputs(&[dir.path().join("*.json")]));
        assert!(!small_inputs(&[dir.path().join("missing.json")]));
    }
}
