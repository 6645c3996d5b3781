use std::process::ExitCode;

// Rows are built in vectors of tens of megabytes that live for one window
// of inputs. glibc's allocator maps and unmaps each of those afresh, and the
// page faults were a quarter of the CPU time of `ingest --out` (Go text,
// 500 MB: 2.2 s of system time of 6.1 s); mimalloc keeps and reuses its
// segments (0.8 s of 4.6 s), at the price of a higher peak RSS (323 MB
// instead of 164 MB, still bounded by the streaming window).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's index of its `purge_delay` option (retired options keep their
/// slots, so the index is the same in its v2 and v3).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // mimalloc gives freed memory back to the OS after a delay, and takes
    // it back when it is needed again: on its transparent huge pages each
    // such round splits a huge page and zeroes fresh ones. A run reuses its
    // memory (rows of one window, then the next; one comparison's vectors,
    // then the next), and those rounds cost up to as much system time as
    // the work itself, varying with the machine's memory fragmentation:
    // hyperfine JSON, 500 MB, 3.4 s (1.8–2.2 s system) instead of 2.2 s
    // (0.2 s); 10,000 comparisons on one thread 1.9–2.1 s instead of 1.3 s.
    // A command-line run ends soon, so what it freed stays with it until
    // then; peak RSS is unchanged. `MIMALLOC_PURGE_DELAY` still decides
    // when it is set.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: a plain store into mimalloc's option table, made before
        // any other thread exists (the setter is not thread safe).
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    }
    // Kept memory is then every page the run ever touched, and with
    // transparent huge pages (mimalloc asks for them on its arena) a page
    // touched is 2 MiB: the spread of a few live megabytes over the
    // threads' pages kept 60-100 MB more than the live heap (a 32 MB mail:
    // 50 MB of heap at the peak, 139-184 MB resident; a 200 KB Go log
    // 64 MB resident, 29 MB without). Without them the same runs take as
    // much CPU: the page faults of 4 KiB pages cost about what splitting
    // and zeroing huge ones did (10^7-sample compare: 0.5 s more user, 1.4
    // s less system time). mimalloc reads its own setting
    // (`MIMALLOC_ALLOW_THP`) before `main`, so the process's switch is
    // set here; it covers memory mapped before it too.
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: a process-wide flag with no pointer arguments; failure
        // (an old kernel) leaves huge pages as they were.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
    patchperf::cli::main()
}
