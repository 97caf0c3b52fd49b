use super::Alphabet::{Crockford, Rfc4648, Rfc4648Hex, Rfc4648HexLower, Rfc4648Lower, Z};
use super::{decode, encode};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{Debug, Error, Formatter};
use self::quickcheck::{Arbitrary, Gen};

#[derive(Clone)]
struct B32 {
    c: u8,
}

impl Arbitrary for B32 {
    fn arbitrary(g: &mut Gen) -> B32 {
        B32 {
            c: *g.choose(b"0123456789ABCDEFGHJKMNPQRSTVWXYZ").unwrap(),
        }
    }
}

impl Debug for B32 {
    fn fmt(&self, f: &mut Formatter) -> Result<(), Error> {
        (self.c as char).fmt(f)
    }
}

#[test]
fn masks_crockford() {
    assert_eq!(
        encode(Crockford, &[0xF8, 0x3E, 0x0F, 0x83, 0xE0]),
        "Z0Z0Z0Z0"
    );
    assert_eq!(
        encode(Crockford, &[0x07, 0xC1, 0xF0, 0x7C, 0x1F]),
        "0Z0Z0Z0Z"
    );
    assert_eq!(
        decode(Crockford, "Z0Z0Z0Z0").unwrap(),
        [0xF8, 0x3E, 0x0F, 0x83, 0xE0]
    );
    assert_eq!(
        decode(Crockford, "0Z0Z0Z0Z").unwrap(),
        [0x07, 0xC1, 0xF0, 0x7C, 0x1F]
    );
}

#[test]
fn masks_rfc4648() {
    assert_eq!(
        encode(Rfc4648 { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "7A7H7A7H"
    );
    assert_eq!(
        encode(Rfc4648 { padding: false }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "O7A7O7A7"
    );
    assert_eq!(
        decode(Rfc4648 { padding: false }, "7A7H7A7H").unwrap(),
        [0xF8, 0x3E, 0x7F, 0x83, 0xE7]
    );
    assert_eq!(
        decode(Rfc4648 { padding: false }, "O7A7O7A7").unwrap(),
        [0x77, 0xC1, 0xF7, 0x7C, 0x1F]
    );
    assert_eq!(
        encode(Rfc4648 { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "7A7H7AY"
    );
}

#[test]
fn masks_rfc4648_pad() {
    assert_eq!(
        encode(Rfc4648 { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "7A7H7A7H"
    );
    assert_eq!(
        encode(Rfc4648 { padding: true }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "O7A7O7A7"
    );
    assert_eq!(
        decode(Rfc4648 { padding: true }, "7A7H7A7H").unwrap(),
        [0xF8, 0x3E, 0x7F, 0x83, 0xE7]
    );
    assert_eq!(
        decode(Rfc4648 { padding: true }, "O7A7O7A7").unwrap(),
        [0x77, 0xC1, 0xF7, 0x7C, 0x1F]
    );
    assert_eq!(
        encode(Rfc4648 { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "7A7H7AY="
    );
}

#[test]
fn masks_rfc4648_lower() {
    assert_eq!(
        encode(Rfc4648Lower { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "7a7h7a7h"
    );
    assert_eq!(
        encode(Rfc4648Lower { padding: false }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "o7a7o7a7"
    );
    assert_eq!(
        decode(Rfc4648Lower { padding: false }, "7a7h7a7h").unwrap(),
        [0xF8, 0x3E, 0x7F, 0x83, 0xE7]
    );
    assert_eq!(
        decode(Rfc4648Lower { padding: false }, "o7a7o7a7").unwrap(),
        [0x77, 0xC1, 0xF7, 0x7C, 0x1F]
    );
    assert_eq!(
        encode(Rfc4648Lower { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "7a7h7ay"
    );
}

#[test]
fn masks_rfc4648_lower_pad() {
    assert_eq!(
        encode(Rfc4648Lower { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "7a7h7a7h"
    );
    assert_eq!(
        encode(Rfc4648Lower { padding: true }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "o7a7o7a7"
    );
    assert_eq!(
        decode(Rfc4648Lower { padding: true }, "7a7h7a7h").unwrap(),
        [0xF8, 0x3E, 0x7F, 0x83, 0xE7]
    );
    assert_eq!(
        decode(Rfc4648Lower { padding: true }, "o7a7o7a7").unwrap(),
        [0x77, 0xC1, 0xF7, 0x7C, 0x1F]
    );
    assert_eq!(
        encode(Rfc4648Lower { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "7a7h7ay="
    );
}

#[test]
fn masks_rfc4648_hex() {
    assert_eq!(
        encode(Rfc4648Hex { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "V0V7V0V7"
    );
    assert_eq!(
        encode(Rfc4648Hex { padding: false }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "EV0VEV0V"
    );
    assert_eq!(
        decode(Rfc4648Hex { padding: false }, "7A7H7A7H").unwrap(),
        [0x3A, 0x8F, 0x13, 0xA8, 0xF1]
    );
    assert_eq!(
        decode(Rfc4648Hex { padding: false }, "O7A7O7A7").unwrap(),
        [0xC1, 0xD4, 0x7C, 0x1D, 0x47]
    );
    assert_eq!(
        encode(Rfc4648Hex { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "V0V7V0O"
    );
}

#[test]
fn masks_rfc4648_hex_pad() {
    assert_eq!(
        encode(Rfc4648Hex { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "V0V7V0V7"
    );
    assert_eq!(
        encode(Rfc4648Hex { padding: true }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "EV0VEV0V"
    );
    assert_eq!(
        decode(Rfc4648Hex { padding: true }, "7A7H7A7H").unwrap(),
        [0x3A, 0x8F, 0x13, 0xA8, 0xF1]
    );
    assert_eq!(
        decode(Rfc4648Hex { padding: true }, "O7A7O7A7").unwrap(),
        [0xC1, 0xD4, 0x7C, 0x1D, 0x47]
    );
    assert_eq!(
        encode(Rfc4648Hex { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "V0V7V0O="
    );
}

#[test]
fn masks_rfc4648_hex_lower() {
    assert_eq!(
        encode(Rfc4648HexLower { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "v0v7v0v7"
    );
    assert_eq!(
        encode(Rfc4648HexLower { padding: false }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "ev0vev0v"
    );
    assert_eq!(
        decode(Rfc4648HexLower { padding: false }, "7a7h7a7h").unwrap(),
        [0x3A, 0x8F, 0x13, 0xA8, 0xF1]
    );
    assert_eq!(
        decode(Rfc4648HexLower { padding: false }, "o7a7o7a7").unwrap(),
        [0xC1, 0xD4, 0x7C, 0x1D, 0x47]
    );
    assert_eq!(
        encode(Rfc4648HexLower { padding: false }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "v0v7v0o"
    );
}

#[test]
fn masks_rfc4648_hex_lower_pad() {
    assert_eq!(
        encode(Rfc4648HexLower { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83, 0xE7]),
        "v0v7v0v7"
    );
    assert_eq!(
        encode(Rfc4648HexLower { padding: true }, &[0x77, 0xC1, 0xF7, 0x7C, 0x1F]),
        "ev0vev0v"
    );
    assert_eq!(
        decode(Rfc4648HexLower { padding: true }, "7a7h7a7h").unwrap(),
        [0x3A, 0x8F, 0x13, 0xA8, 0xF1]
    );
    assert_eq!(
        decode(Rfc4648HexLower { padding: true }, "o7a7o7a7").unwrap(),
        [0xC1, 0xD4, 0x7C, 0x1D, 0x47]
    );
    assert_eq!(
        encode(Rfc4648HexLower { padding: true }, &[0xF8, 0x3E, 0x7F, 0x83]),
        "v0v7v0o="
    );
}

#[test]
fn masks_z() {
    assert_eq!(
        encode(Z, &[0xF8, 0x3E, 0x0F, 0x83, 0xE0]),
        "9y9y9y9y"
    );
    assert_eq!(
        encode(Z, &[0x07, 0xC1, 0xF0, 0x7C, 0x1F]),
        "y9y9y9y9"
    );
    assert_eq!(
        decode(Z, "9y9y9y9y").unwrap(),
        [0xF8, 0x3E, 0x0F, 0x83, 0xE0]
    );
    assert_eq!(
        decode(Z, "y9y9y9y9").unwrap(),
        [0x07, 0xC1, 0xF0, 0x7C, 0x1F]
    );
}

#[test]
fn padding() {
    let num_padding = [0, 6, 4, 3, 1];
    for i in 1..6 {
        let encoded = encode(
            Rfc4648 { padding: true },
            (0..(i as u8)).collect::<Vec<u8>>().as_ref(),
        );
        assert_eq!(encoded.len(), 8);
        for j in 0..(num_padding[i % 5]) {
            assert_eq!(encoded.as_bytes()[encoded.len() - j - 1], b'=');
        }
        for j in 0..(8 - num_padding[i % 5]) {
            assert!(encoded.as_bytes()[j] != b'=');
        }
    }
}

#[test]
fn invertible_crockford() {
    fn test(data: Vec<u8>) -> bool {
        decode(Crockford, encode(Crockford, data.as_ref()).as_ref()).unwrap() == data
    }
    quickcheck::quickcheck(test as fn(Vec<u8>) -> bool)
}

#[test]
fn invertible_rfc4648() {
    fn test(data: Vec<u8>) -> bool {
        decode(
            Rfc4648 { padding: true },
            encode(Rfc4648 { padding: true }, data.as_ref()).as_ref(),
        )
        .unwrap()
            == data
    }
    quickcheck::quickcheck(test as fn(Vec<u8>) -> bool)
}
#[test]
fn invertible_unpadded_rfc4648() {
    fn test(data: Vec<u8>) -> bool {
        decode(
            Rfc4648 { padding: false },
            encode(Rfc4648 { padding: false }, data.as_ref()).as_ref(),
        )
        .unwrap()
            == data
    }
    quickcheck::quickcheck(test as fn(Vec<u8>) -> bool)
}

#[test]
fn lower_case() {
    fn test(data: Vec<B32>) -> bool {
        let data: String = data.iter().map(|e| e.c as char).collect();
        decode(Crockford, data.as_ref())
            == decode(Crockford, data.to_ascii_lowercase().as_ref())
    }
    quickcheck::quickcheck(test as fn(Vec<B32>) -> bool)
}

#[test]
#[allow(non_snake_case)]
fn iIlL1_oO0() {
    assert_eq!(decode(Crockford, "IiLlOo"), decode(Crockford, "111100"));
}

#[test]
fn invalid_chars_crockford() {
    assert_eq!(decode(Crockford, ","), None)
}

#[test]
fn invalid_chars_rfc4648() {
    assert_eq!(decode(Rfc4648 { padding: true }, ","), None)
}

#[test]
fn invalid_chars_unpadded_rfc4648() {
    assert_eq!(decode(Rfc4648 { padding: false }, ","), None)
}

/// A stand-in for the `quickcheck` crate (upstream's dev-dependency): each property runs
/// on 100 inputs drawn with a fixed-seed xorshift generator, vectors of length 0 to 100
/// (quickcheck's defaults: 100 tests, size 100).
mod quickcheck {
    use alloc::vec::Vec;

    pub struct Gen {
        state: u64,
        size: usize,
    }

    impl Gen {
        fn next(&mut self) -> u64 {
            let mut x = self.state;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.state = x;
            x
        }

        pub fn choose<'a, T>(&mut self, slice: &'a [T]) -> Option<&'a T> {
            if slice.is_empty() {
                None
            } else {
                let i = (self.next() % slice.len() as u64) as usize;
                Some(&slice[i])
            }
        }
    }

    pub trait Arbitrary: Sized {
        fn arbitrary(g: &mut Gen) -> Self;
    }

    impl Arbitrary for u8 {
        fn arbitrary(g: &mut Gen) -> u8 {
            g.next() as u8
        }
    }

    impl<T: Arbitrary> Arbitrary for Vec<T> {
        fn arbitrary(g: &mut Gen) -> Vec<T> {
            let len = (g.next() % (g.size as u64 + 1)) as usize;
            (0..len).map(|_| T::arbitrary(g)).collect()
        }
    }

    pub fn quickcheck<A: Arbitrary + core::fmt::Debug>(prop: fn(A) -> bool) {
        let mut g = Gen {
            state: 0x9E37_79B9_7F4A_7C15,
            size: 100,
        };
        for _ in 0..100 {
            let input = A::arbitrary(&mut g);
            let shown = alloc::format!("{:?}", input);
            assert!(prop(input), "property failed for input {}", shown);
        }
    }
}
