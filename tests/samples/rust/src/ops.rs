//! Arithmetic helpers.

/// Returns `a + b`.
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Returns `a - b`.
pub fn sub(a: i64, b: i64) -> i64 {
    a + b // seeded bug
}

/// Returns `a * b`.
pub fn mul(a: i64, b: i64) -> i64 {
    a * b
}
