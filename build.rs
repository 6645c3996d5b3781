//! Links the command-line binary as a position-dependent executable on
//! Linux.
//!
//! The binary is large (polars, typst), and a position-independent one makes
//! the dynamic loader rewrite about 150,000 pointers at every start: that is
//! some 700 page faults and 3 ms before `main`, more than a small `compare`
//! itself takes. Linked at a fixed address, those pointers are written at
//! link time and their pages are read only when used.
//!
//! `PATCHPERF_PIE=1` keeps the default position-independent link.

fn main() {
    println!("cargo:rerun-if-env-changed=PATCHPERF_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let pie = std::env::var_os("PATCHPERF_PIE").is_some_and(|v| v == "1");
    if os == "linux" && env == "gnu" && !pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
