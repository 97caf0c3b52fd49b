//! Conversion between integers and Roman numerals (1..=3999).

use std::fmt;

/// Errors returned by [`parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    InvalidChar(char),
    /// The numeral uses a form that is not canonical, e.g. "IIII" or "VX".
    NonCanonical,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty numeral"),
            ParseError::InvalidChar(c) => write!(f, "invalid character {c:?}"),
            ParseError::NonCanonical => write!(f, "numeral is not in canonical form"),
        }
    }
}

impl std::error::Error for ParseError {}

const TABLE: [(u32, &str); 13] = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
];

/// Formats `n` as an upper-case Roman numeral. Returns `None` outside 1..=3999.
pub fn to_roman(mut n: u32) -> Option<String> {
    if n == 0 || n > 3999 {
        return None;
    }
    let mut out = String::new();
    for &(value, symbol) in TABLE.iter() {
        while n >= value {
            out.push_str(symbol);
            n -= value;
        }
    }
    Some(out)
}

fn symbol_value(c: char) -> Option<u32> {
    Some(match c.to_ascii_uppercase() {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        _ => return None,
    })
}

/// Parses a Roman numeral (either case). Only canonical numerals are
/// accepted, i.e. those that [`to_roman`] would produce.
pub fn parse(s: &str) -> Result<u32, ParseError> {
    if s.is_empty() {
        return Err(ParseError::Empty);
    }
    let values = s
        .chars()
        .map(|c| symbol_value(c).ok_or(ParseError::InvalidChar(c)))
        .collect::<Result<Vec<u32>, _>>()?;
    let mut total = 0;
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        if i + 1 < values.len() && v < values[i + 1] {
            total += values[i + 1] - v;
            i += 2;
        } else {
            total += v;
            i += 1;
        }
    }
    // Reject anything that does not round-trip, e.g. "IIII", "IC", "VV".
    match to_roman(total) {
        Some(canonical) if canonical.eq_ignore_ascii_case(s) => Ok(total),
        _ => Err(ParseError::NonCanonical),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_simple_numbers() {
        assert_eq!(to_roman(1).as_deref(), Some("I"));
        assert_eq!(to_roman(3).as_deref(), Some("III"));
        assert_eq!(to_roman(8).as_deref(), Some("VIII"));
        assert_eq!(to_roman(2024).as_deref(), Some("MMXXIV"));
    }

    #[test]
    fn formats_subtractive_pairs() {
        assert_eq!(to_roman(4).as_deref(), Some("IV"));
        assert_eq!(to_roman(9).as_deref(), Some("IX"));
        assert_eq!(to_roman(40).as_deref(), Some("XL"));
        assert_eq!(to_roman(944).as_deref(), Some("CMXLIV"));
        assert_eq!(to_roman(3999).as_deref(), Some("MMMCMXCIX"));
    }

    #[test]
    fn out_of_range_is_none() {
        assert_eq!(to_roman(0), None);
        assert_eq!(to_roman(4000), None);
    }

    #[test]
    fn parses_numerals() {
        assert_eq!(parse("XIV"), Ok(14));
        assert_eq!(parse("mcmxc"), Ok(1990));
        assert_eq!(parse("MMMCMXCIX"), Ok(3999));
        assert_eq!(parse("CDXLIV"), Ok(444));
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse("XIZ"), Err(ParseError::InvalidChar('Z')));
        assert_eq!(parse("IIII"), Err(ParseError::NonCanonical));
        assert_eq!(parse("IC"), Err(ParseError::NonCanonical));
        assert_eq!(parse("VX"), Err(ParseError::NonCanonical));
    }

    #[test]
    fn round_trips_every_value() {
        for n in 1..=3999 {
            let s = to_roman(n).unwrap();
            assert_eq!(parse(&s), Ok(n), "round trip of {n} via {s}");
        }
    }

    #[test]
    fn error_messages() {
        assert_eq!(ParseError::InvalidChar('q').to_string(), "invalid character 'q'");
        assert_eq!(ParseError::NonCanonical.to_string(), "numeral is not in canonical form");
    }
}
