//! Links the `slopguard` binary as a position-dependent executable on Linux.
//!
//! A position-independent executable (the toolchain's default) is relocated by the dynamic
//! loader at every start: the tree-sitter grammars' tables and the other pointer-holding
//! data, about 2 MB of relocations here, written into pages that each start then copies.
//! Linked at a fixed address, the same pointers are resolved by the linker once: `slopguard
//! --version` starts in 2.4 ms instead of 5.6 ms (205 page faults instead of 573;
//! BENCHMARKS.md, session 36), which every `check` and every agent hook call pays. The code
//! is still compiled position-independent (only the final link changes), and shared
//! libraries, heap and stack keep their random addresses; only the executable's own image
//! does not move, as with Go's default builds on Linux.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
