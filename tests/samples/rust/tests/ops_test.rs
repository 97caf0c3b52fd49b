use sample_calc::ops::{add, mul, sub};

#[test]
fn add_adds() {
    assert_eq!(add(2, 3), 5);
}

#[test]
fn mul_multiplies() {
    assert_eq!(mul(2, 3), 6);
}

#[test]
fn sub_subtracts() {
    assert_eq!(sub(5, 3), 2);
}
