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
