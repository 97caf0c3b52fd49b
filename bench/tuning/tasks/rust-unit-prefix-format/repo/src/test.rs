use super::{NumberPrefix, Prefix};

#[test]
fn decimal_minus_one_billion() {
    assert_eq!(
        NumberPrefix::decimal(-1_000_000_000_f64),
        NumberPrefix::Prefixed(Prefix::Giga, -1f64)
    )
}

#[test]
fn decimal_minus_one() {
    assert_eq!(NumberPrefix::decimal(-1f64), NumberPrefix::Standalone(-1f64))
}

#[test]
fn decimal_0() {
    assert_eq!(NumberPrefix::decimal(0f64), NumberPrefix::Standalone(0f64))
}

#[test]
fn decimal_999() {
    assert_eq!(NumberPrefix::decimal(999f32), NumberPrefix::Standalone(999f32))
}

#[test]
fn decimal_1000() {
    assert_eq!(
        NumberPrefix::decimal(1000f32),
        NumberPrefix::Prefixed(Prefix::Kilo, 1f32)
    )
}

#[test]
fn decimal_1030() {
    assert_eq!(
        NumberPrefix::decimal(1030f32),
        NumberPrefix::Prefixed(Prefix::Kilo, 1.03f32)
    )
}

#[test]
fn decimal_1100() {
    assert_eq!(
        NumberPrefix::decimal(1100f64),
        NumberPrefix::Prefixed(Prefix::Kilo, 1.1f64)
    )
}

#[test]
fn decimal_1111() {
    assert_eq!(
        NumberPrefix::decimal(1111f64),
        NumberPrefix::Prefixed(Prefix::Kilo, 1.111f64)
    )
}

#[test]
fn binary_126456() {
    assert_eq!(
        NumberPrefix::binary(126_456f32),
        NumberPrefix::Prefixed(Prefix::Kibi, 123.492_19f32)
    )
}

#[test]
fn binary_1048576() {
    assert_eq!(
        NumberPrefix::binary(1_048_576f64),
        NumberPrefix::Prefixed(Prefix::Mebi, 1f64)
    )
}

#[test]
fn binary_1073741824() {
    assert_eq!(
        NumberPrefix::binary(2_147_483_648f32),
        NumberPrefix::Prefixed(Prefix::Gibi, 2f32)
    )
}

#[test]
fn giga() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Giga, 1f64)
    )
}

#[test]
fn tera() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Tera, 1f64)
    )
}

#[test]
fn peta() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Peta, 1f64)
    )
}

#[test]
fn exa() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Exa, 1f64)
    )
}

#[test]
fn zetta() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Zetta, 1f64)
    )
}

#[test]
fn yotta() {
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Yotta, 1f64)
    )
}

#[test]
fn and_so_on() {
    // When you hit yotta, don't keep going
    assert_eq!(
        NumberPrefix::decimal(1_000_000_000_000_000_000_000_000_000f64),
        NumberPrefix::Prefixed(Prefix::Yotta, 1000f64)
    )
}
