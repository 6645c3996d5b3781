//! How many inputs are read at once: as many as the memory the inputs'
//! size allows, not one per core.
//!
//! A thread reading a piece holds the piece's rows and the reader's
//! per-line structures, and the allocator keeps what each thread's heap
//! once held (purging is off, for CPU). So memory grows with the threads
//! that read, not with the input: on one 2-core machine with
//! `RAYON_NUM_THREADS` set to 2 and 16, 192 MB of bare `Time:` lines
//! peaked at 148 and 719 MiB, a 15 MB Go log at 106 and 293 MiB, a 32 MB
//! mail at 94 and 430 MiB. The promise is peak RSS within the input's size
//! and 100 MB, whatever the machine, so the readers are counted from that
//! budget. Pieces keep their sizes (what is read, and so the rows, never
//! depends on the machine); only how many are read at once does.

/// What one more reading thread costs at its peak: the rows of a window
/// share ([`super::stream::WINDOW_BYTES_PER_THREAD`] of weighted input),
/// the reader's structures and what its heap keeps. Measured per thread
/// added between 2 and 16 threads: 41 MiB for `Time:` lines, 35 MiB for
/// a mail table, 17-38 MiB for a Go log; rounded up, since a thread
/// over the budget costs more than a thread not started.
const READER_BYTES: u64 = 48 << 20;

/// What the process holds before it reads (code, pools, the first
/// thread's heap, the writer), counted against the 100 MB allowance.
const BASE_BYTES: u64 = 50 << 20;

/// The allowance on top of the input's size that peak memory stays in.
const ALLOWANCE_BYTES: u64 = 100 << 20;

/// Fewest readers. Two kept reading and preparing overlapped, but a
/// second thread's heap is what a small input cannot afford: a 15 MB Go
/// log of 165,000 benchmarks peaked at 101-122 MB with two readers,
/// against a budget of 115 MB, and at 62 MB with one. An input gets a
/// second reader once its budget affords two (about 46 MiB of input).
const MIN_READERS: usize = 1;

/// How many inputs of `input_bytes` in all are read at once on a pool of
/// `threads`: what fits the budget of the input's size plus 100 MB, at
/// least [`MIN_READERS`] and at most `threads`.
pub(super) fn readers(threads: usize, input_bytes: u64) -> usize {
    let budget = (input_bytes + ALLOWANCE_BYTES).saturating_sub(BASE_BYTES);
    let affordable = (budget / READER_BYTES).min(usize::MAX as u64) as usize;
    affordable.max(MIN_READERS).min(threads.max(1))
}

/// A pool of `readers` threads to read on, when that is fewer than the
/// current pool has; `None` when the current pool is the right size or a
/// pool cannot be started (reading then goes on as before, on all threads).
pub(super) fn reading_pool(readers: usize) -> Option<rayon::ThreadPool> {
    if readers >= rayon::current_num_threads() {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(readers)
        .thread_name(|i| format!("patchperf-read-{i}"))
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: u64 = 1 << 20;

    #[test]
    fn small_inputs_are_read_one_at_a_time_whatever_the_cores() {
        assert_eq!(readers(16, 15 * MB), 1);
        assert_eq!(readers(64, 32 * MB), 1);
        assert_eq!(readers(2, 0), 1);
        // Two once the budget affords them.
        assert_eq!(readers(16, 46 * MB), 2);
        assert_eq!(readers(16, 45 * MB), 1);
    }

    #[test]
    fn larger_inputs_afford_more_readers_up_to_the_cores() {
        assert_eq!(readers(16, 192 * MB), 5);
        assert_eq!(readers(16, 2000 * MB), 16);
        assert_eq!(readers(4, 2000 * MB), 4);
        // Every reader the budget allows fits inside it.
        for mb in [0, 10, 100, 192, 500, 1000] {
            let r = readers(usize::MAX, mb * MB) as u64;
            assert!(
                r == MIN_READERS as u64
                    || BASE_BYTES + r * READER_BYTES <= (mb * MB) + ALLOWANCE_BYTES
            );
        }
    }

    #[test]
    fn one_thread_stays_one() {
        assert_eq!(readers(1, 2000 * MB), 1);
        assert_eq!(readers(0, 0), 1);
    }
}
