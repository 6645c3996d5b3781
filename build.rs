//! Links the `patchperf` executable as a position-dependent (non-PIE) binary
//! on Linux with the GNU toolchain.
//!
//! Why: the binary is large (polars, typst), and as a PIE the dynamic loader
//! applies ~150,000 relative relocations at every start, writing to ~2.9 MB
//! of `.data.rel.ro` and so taking ~800 copy-on-write page faults before
//! `main` runs. Linked non-PIE, the addresses are fixed at link time and
//! those pages stay shared and file-backed: `--version` went from 930 to
//! 140 page faults and 2.7 to 1.2 ms, a `compare` of two small hyperfine
//! files from 3.9 to 2.5 ms. The objects are still compiled
//! position-independent, so only the final link changes. The cost is that
//! the executable's own image is not randomised by ASLR (shared libraries,
//! heap and stack still are); set `PATCHPERF_PIE=1` at build time to keep a
//! PIE.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PATCHPERF_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let keep_pie = std::env::var_os("PATCHPERF_PIE").is_some_and(|v| v == "1");
    if os == "linux" && env == "gnu" && !keep_pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
