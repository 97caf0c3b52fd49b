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
mod tests;
