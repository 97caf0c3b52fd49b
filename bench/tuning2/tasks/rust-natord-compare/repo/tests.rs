use super::compare;
use std::cmp::Ordering;
use std::cmp::Ordering::{Less, Equal, Greater};

fn check_total_order(strs: &[&str]) {
    fn ordering_to_op(ord: Ordering) -> &'static str {
        match ord {
            Greater => ">",
            Equal => "=",
            Less => "<",
        }
    }

    for (i, &x) in strs.iter().enumerate() {
        for (j, &y) in strs.iter().enumerate() {
            assert!(compare(x, y) == i.cmp(&j),
                    "expected x {} y, returned x {} y (where x = `{}`, y = `{}`)",
                    ordering_to_op(i.cmp(&j)), ordering_to_op(compare(x, y)), x, y);
        }
    }
}

#[test]
fn test_numeric() {
    check_total_order(&["a", "a0", "a1", "a1a", "a1b", "a2", "a10", "a20"]);
}

#[test]
fn test_multiple_parts() {
    check_total_order(&["x2-g8", "x2-y7", "x2-y8", "x8-y8"]);
}

#[test]
fn test_leading_zeroes() {
    check_total_order(&["1.001", "1.002", "1.010", "1.02", "1.1", "1.3"]);
}

#[test]
fn test_longer() {
    check_total_order(&[
        "1-02",
        "1-2",
        "1-20",
        "10-20",
        "fred",
        "jane",
        "pic1",
        "pic2",
        "pic2a",
        "pic3",
        "pic4",
        "pic4   alpha",
        "pic 4 else",
        "pic4  last",
        "pic5",
        "pic5.07",
        "pic5.08",
        "pic5.13",
        "pic5.113",
        "pic 5 something",
        "pic 6",
        "pic   7",
        "pic100",
        "pic100a",
        "pic120",
        "pic121",
        "pic2000",
        "tom",
        "x2-g8",
        "x2-y7",
        "x2-y8",
        "x8-y8",
    ]);
}
