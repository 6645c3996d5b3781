use std::process::ExitCode;

// Rows are built in vectors of tens of megabytes that live for one window
// of inputs. glibc's allocator maps and unmaps each of those afresh, and the
// page faults were a quarter of the CPU time of `ingest --out` (Go text,
// 500 MB: 2.2 s of system time of 6.1 s); mimalloc keeps and reuses its
// segments (0.8 s of 4.6 s), at the price of a higher peak RSS (323 MB
// instead of 164 MB, still bounded by the streaming window).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // The main thread is one of the pool's threads instead of waiting for
    // them: on n cores n − 1 threads are started, not n. A small compare
    // spends a good part of its time starting threads and faulting in the
    // fresh memory each thread's allocator heap takes (a 2 MB huge page at
    // a time). The main thread only ever waits for the pool inside rayon
    // calls, where it takes part in the work. Should the pool exist
    // already, the default one is used.
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    patchperf::cli::main()
}
