//! What a test run prints that is not the failure: runner noise left out of the excerpt the
//! prompts open with ([`super::excerpt`]). Every line kept is read again by the model at
//! each prompt a caching server has not seen, at tens of tokens a second on a CPU.

/// Lines of runner noise: separators, timing, runner internals, stack frames outside the
/// repository.
pub(super) fn is_noise(line: &str) -> bool {
    let t = line.trim();
    is_rust_runtime_frame(t)
        || t.starts_with("note: Some details are omitted")
        || t == "stack backtrace:"
        || (t.starts_with("running ") && (t.ends_with(" tests") || t.ends_with(" test")))
        || t.starts_with("error: test failed, to rerun pass")
        || t.starts_with("test result: ok.")
        || t.starts_with("Doc-tests ")
        || t.is_empty()
        || (t.len() >= 8 && t.chars().all(|c| "=-_~*".contains(c)))
        || t.chars().all(|c| c == '^' || c == '~' || c == ' ')
        || t.starts_with("duration_ms")
        || t.starts_with("type: '")
        || t.starts_with("failureType")
        || t.starts_with("code: 'ERR_")
        || t.starts_with("stack: |")
        || t.starts_with("at async ")
        || t.contains("node:internal")
        || t.contains("/site-packages/")
        || t.contains("/lib/python3")
        || t.contains("/rustc/")
        || t.contains("/usr/lib/go")
        || t.starts_with("note: run with `RUST_BACKTRACE")
        || t.starts_with("=== RUN")
        || t.starts_with("=== PAUSE")
        || t.starts_with("=== CONT")
        || t.starts_with("Traceback (most recent call last)")
        || t.contains("(node:")
        || is_passing_test_line(t)
}

/// A runner's line for a test that passed (or was skipped): what passes is not the failure,
/// and a suite's passing tests can be most of what it printed. Go's `--- PASS: TestX (0.00s)`
/// and `ok  \tpkg\t0.1s`, Rust's `test m::t ... ok`, minitest's verbose `C#test_x = 0.00 s =
/// .`, TAP's `ok 3 - name`.
fn is_passing_test_line(t: &str) -> bool {
    let tap_ok = t
        .strip_prefix("ok ")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    t.starts_with("--- PASS: ")
        || t.starts_with("--- SKIP: ")
        || t.starts_with("ok  \t")
        || (t.starts_with("test ") && (t.ends_with(" ... ok") || t.ends_with(" ... ignored")))
        || t.ends_with(" s = .")
        || t.ends_with(" s = S")
        || tap_ok
}

/// A frame of a Rust backtrace (`RUST_BACKTRACE=1`) in the standard library, the runtime or
/// the test harness (`3: core::panicking::assert_failed`, `7: <fn() -> ... as
/// core::ops::function::FnOnce<()>>::call_once`): the frames in the crate under test stay.
fn is_rust_runtime_frame(t: &str) -> bool {
    let Some((number, symbol)) = t.split_once(": ") else {
        return false;
    };
    !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && [
            "core::",
            "std::",
            "alloc::",
            "test::",
            "__rustc::",
            "__rust_",
            "<",
        ]
        .iter()
        .any(|p| symbol.starts_with(p))
}
