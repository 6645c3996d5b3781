//! Work that needs a deeper stack than a pool thread has.

use crate::error::{Error, Result};

/// Stack for polars' lazy engine: planning, optimising and executing a
/// query recurse deeply, and in a debug build a part of an archive
/// overflowed the 2 MiB of a pool thread whenever a worker rather than the
/// main thread (8 MiB) read it. Reserved address space, not memory.
pub(crate) const POLARS_STACK: usize = 64 << 20;

/// Runs `f` on a thread of its own with `bytes` of stack and waits for it;
/// a panic in `f` goes on in the caller.
pub(crate) fn with_stack<T: Send>(bytes: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .stack_size(bytes)
            .spawn_scoped(s, f)
            .map_err(|e| Error::Other(format!("starting a thread: {e}")))?;
        handle
            .join()
            .map_err(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_a_deep_stack_and_gives_the_result() {
        // Recursion far deeper than a 2 MiB stack holds.
        fn depth(n: u32) -> u32 {
            let pad = std::hint::black_box([0u8; 1024]);
            if n == 0 {
                u32::from(pad[0])
            } else {
                depth(n - 1) + 1
            }
        }
        assert_eq!(with_stack(POLARS_STACK, || depth(10_000)).unwrap(), 10_000);
    }
}
