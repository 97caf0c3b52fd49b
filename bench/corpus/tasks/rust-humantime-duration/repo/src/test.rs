use std::time::Duration;

use super::Error;
use super::{format_duration, parse_duration};

#[test]
#[allow(clippy::cognitive_complexity)]
fn test_units() {
    assert_eq!(parse_duration("17nsec"), Ok(Duration::new(0, 17)));
    assert_eq!(parse_duration("17nanos"), Ok(Duration::new(0, 17)));
    assert_eq!(parse_duration("33ns"), Ok(Duration::new(0, 33)));
    assert_eq!(parse_duration("3usec"), Ok(Duration::new(0, 3000)));
    assert_eq!(parse_duration("78us"), Ok(Duration::new(0, 78000)));
    assert_eq!(parse_duration("163µs"), Ok(Duration::new(0, 163000)));
    assert_eq!(parse_duration("31msec"), Ok(Duration::new(0, 31_000_000)));
    assert_eq!(parse_duration("31millis"), Ok(Duration::new(0, 31_000_000)));
    assert_eq!(parse_duration("6ms"), Ok(Duration::new(0, 6_000_000)));
    assert_eq!(parse_duration("3000s"), Ok(Duration::new(3000, 0)));
    assert_eq!(parse_duration("300sec"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("300secs"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("50seconds"), Ok(Duration::new(50, 0)));
    assert_eq!(parse_duration("1second"), Ok(Duration::new(1, 0)));
    assert_eq!(parse_duration("100m"), Ok(Duration::new(6000, 0)));
    assert_eq!(parse_duration("12min"), Ok(Duration::new(720, 0)));
    assert_eq!(parse_duration("12mins"), Ok(Duration::new(720, 0)));
    assert_eq!(parse_duration("1minute"), Ok(Duration::new(60, 0)));
    assert_eq!(parse_duration("7minutes"), Ok(Duration::new(420, 0)));
    assert_eq!(parse_duration("2h"), Ok(Duration::new(7200, 0)));
    assert_eq!(parse_duration("7hr"), Ok(Duration::new(25200, 0)));
    assert_eq!(parse_duration("7hrs"), Ok(Duration::new(25200, 0)));
    assert_eq!(parse_duration("1hour"), Ok(Duration::new(3600, 0)));
    assert_eq!(parse_duration("24hours"), Ok(Duration::new(86400, 0)));
    assert_eq!(parse_duration("1day"), Ok(Duration::new(86400, 0)));
    assert_eq!(parse_duration("2days"), Ok(Duration::new(172_800, 0)));
    assert_eq!(parse_duration("365d"), Ok(Duration::new(31_536_000, 0)));
    assert_eq!(parse_duration("1week"), Ok(Duration::new(604_800, 0)));
    assert_eq!(parse_duration("7weeks"), Ok(Duration::new(4_233_600, 0)));
    assert_eq!(
        parse_duration("104wks"),
        Ok(Duration::new(2 * 31_449_600, 0))
    );
    assert_eq!(parse_duration("100wk"), Ok(Duration::new(60_480_000, 0)));
    assert_eq!(parse_duration("52w"), Ok(Duration::new(31_449_600, 0)));
    assert_eq!(parse_duration("1month"), Ok(Duration::new(2_630_016, 0)));
    assert_eq!(
        parse_duration("3months"),
        Ok(Duration::new(3 * 2_630_016, 0))
    );
    assert_eq!(parse_duration("12M"), Ok(Duration::new(31_560_192, 0)));
    assert_eq!(parse_duration("1year"), Ok(Duration::new(31_557_600, 0)));
    assert_eq!(
        parse_duration("7years"),
        Ok(Duration::new(7 * 31_557_600, 0))
    );
    assert_eq!(
        parse_duration("15yrs"),
        Ok(Duration::new(15 * 31_557_600, 0))
    );
    assert_eq!(
        parse_duration("10yr"),
        Ok(Duration::new(10 * 31_557_600, 0))
    );
    assert_eq!(parse_duration("17y"), Ok(Duration::new(536_479_200, 0)));
}

#[test]
fn test_fractional_bad_input() {
    assert!(matches!(
        parse_duration("1.s"),
        Err(Error::InvalidCharacter(_))
    ));
    assert!(matches!(
        parse_duration("1..s"),
        Err(Error::InvalidCharacter(_))
    ));
    assert!(matches!(
        parse_duration(".1s"),
        Err(Error::NumberExpected(_))
    ));
    assert!(matches!(parse_duration("."), Err(Error::NumberExpected(_))));
    assert_eq!(
        parse_duration("0.000123456789s"),
        Err(Error::NumberOverflow)
    );
}

#[test]
fn test_fractional_units() {
    // nanos
    for input in &["17.5nsec", "5.1nanos", "0.0005ns"] {
        let bad_ns_frac = parse_duration(input);
        assert!(
            matches!(bad_ns_frac, Err(Error::NumberOverflow)),
            "fractions of nanoseconds should fail, but got {bad_ns_frac:?}"
        );
    }

    // micros
    assert_eq!(parse_duration("3.1usec"), Ok(Duration::new(0, 3100)));
    assert_eq!(parse_duration("3.1us"), Ok(Duration::new(0, 3100)));
    assert_eq!(parse_duration("3.01us"), Ok(Duration::new(0, 3010)));
    assert_eq!(parse_duration("3.001us"), Ok(Duration::new(0, 3001)));
    for input in &["3.0001us", "0.0001us", "0.123456us"] {
        let bad_ms_frac = parse_duration(input);
        assert!(
            matches!(bad_ms_frac, Err(Error::NumberOverflow)),
            "too small fractions of microseconds should fail, but got {bad_ms_frac:?}"
        );
    }

    // millis
    assert_eq!(parse_duration("31.1msec"), Ok(Duration::new(0, 31_100_000)));
    assert_eq!(
        parse_duration("31.1millis"),
        Ok(Duration::new(0, 31_100_000))
    );
    assert_eq!(parse_duration("31.1ms"), Ok(Duration::new(0, 31_100_000)));
    assert_eq!(parse_duration("31.01ms"), Ok(Duration::new(0, 31_010_000)));
    assert_eq!(parse_duration("31.001ms"), Ok(Duration::new(0, 31_001_000)));
    assert_eq!(
        parse_duration("31.0001ms"),
        Ok(Duration::new(0, 31_000_100))
    );
    assert_eq!(
        parse_duration("31.00001ms"),
        Ok(Duration::new(0, 31_000_010))
    );
    assert_eq!(
        parse_duration("31.000001ms"),
        Ok(Duration::new(0, 31_000_001))
    );
    assert!(matches!(
        parse_duration("31.0000001ms"),
        Err(Error::NumberOverflow)
    ));

    // seconds
    assert_eq!(parse_duration("300.0sec"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("300.0secs"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("300.0seconds"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("300.0s"), Ok(Duration::new(300, 0)));
    assert_eq!(parse_duration("0.0s"), Ok(Duration::new(0, 0)));
    assert_eq!(parse_duration("0.2s"), Ok(Duration::new(0, 200_000_000)));
    assert_eq!(parse_duration("1.2s"), Ok(Duration::new(1, 200_000_000)));
    assert_eq!(parse_duration("1.02s"), Ok(Duration::new(1, 20_000_000)));
    assert_eq!(parse_duration("1.002s"), Ok(Duration::new(1, 2_000_000)));
    assert_eq!(parse_duration("1.0002s"), Ok(Duration::new(1, 200_000)));
    assert_eq!(parse_duration("1.00002s"), Ok(Duration::new(1, 20_000)));
    assert_eq!(parse_duration("1.000002s"), Ok(Duration::new(1, 2_000)));
    assert_eq!(parse_duration("1.0000002s"), Ok(Duration::new(1, 200)));
    assert_eq!(parse_duration("1.00000002s"), Ok(Duration::new(1, 20)));
    assert_eq!(parse_duration("1.000000002s"), Ok(Duration::new(1, 2)));
    assert_eq!(
        parse_duration("1.123456789s"),
        Ok(Duration::new(1, 123_456_789))
    );
    assert!(matches!(
        parse_duration("1.0000000002s"),
        Err(Error::NumberOverflow)
    ));
    assert!(matches!(
        parse_duration("0.0000000002s"),
        Err(Error::NumberOverflow)
    ));

    // minutes
    assert_eq!(parse_duration("100.0m"), Ok(Duration::new(6000, 0)));
    assert_eq!(parse_duration("12.1min"), Ok(Duration::new(726, 0)));
    assert_eq!(parse_duration("12.1mins"), Ok(Duration::new(726, 0)));
    assert_eq!(parse_duration("1.5minute"), Ok(Duration::new(90, 0)));
    assert_eq!(parse_duration("1.5minutes"), Ok(Duration::new(90, 0)));

    // hours
    assert_eq!(parse_duration("2.0h"), Ok(Duration::new(7200, 0)));
    assert_eq!(parse_duration("2.0hr"), Ok(Duration::new(7200, 0)));
    assert_eq!(parse_duration("2.0hrs"), Ok(Duration::new(7200, 0)));
    assert_eq!(parse_duration("2.0hours"), Ok(Duration::new(7200, 0)));
    assert_eq!(parse_duration("2.5h"), Ok(Duration::new(9000, 0)));
    assert_eq!(parse_duration("0.5h"), Ok(Duration::new(1800, 0)));

    // days
    assert_eq!(
        parse_duration("1.5day"),
        Ok(Duration::new(86400 + 86400 / 2, 0))
    );
    assert_eq!(
        parse_duration("1.5days"),
        Ok(Duration::new(86400 + 86400 / 2, 0))
    );
    assert_eq!(
        parse_duration("1.5d"),
        Ok(Duration::new(86400 + 86400 / 2, 0))
    );
    assert!(matches!(
        parse_duration("0.00000005d"),
        Err(Error::NumberOverflow)
    ));
}

#[test]
fn test_fractional_combined() {
    assert_eq!(parse_duration("7.120us 3ns"), Ok(Duration::new(0, 7123)));
    assert_eq!(parse_duration("7.123us 4ns"), Ok(Duration::new(0, 7127)));
    assert_eq!(
        parse_duration("1.234s 789ns"),
        Ok(Duration::new(1, 234_000_789))
    );
    assert_eq!(
        parse_duration("1.234s 0.789us"),
        Ok(Duration::new(1, 234_000_789))
    );
    assert_eq!(
        parse_duration("1.234567s 0.789us"),
        Ok(Duration::new(1, 234_567_789))
    );
    assert_eq!(
        parse_duration("1.234s 1.345ms 1.678us 1ns"),
        Ok(Duration::new(1, 235_346_679))
    );
    assert_eq!(
        parse_duration("1.234s 0.345ms 0.678us 0ns"),
        Ok(Duration::new(1, 234_345_678))
    );
    assert_eq!(
        parse_duration("1.234s0.345ms0.678us0ns"),
        Ok(Duration::new(1, 234_345_678))
    );
}

#[test]
fn allow_0_with_no_unit() {
    assert_eq!(parse_duration("0"), Ok(Duration::new(0, 0)));
}

#[test]
fn test_combo() {
    assert_eq!(
        parse_duration("20 min 17 nsec "),
        Ok(Duration::new(1200, 17))
    );
    assert_eq!(parse_duration("2h 15m"), Ok(Duration::new(8100, 0)));
}

#[test]
fn all_86400_seconds() {
    for second in 0..86400 {
        // scan leap year and non-leap year
        let d = Duration::new(second, 0);
        assert_eq!(d, parse_duration(&format_duration(d).to_string()).unwrap());
    }
}

// Upstream draws these values from `rand`; this copy has no dependencies,
// so a fixed linear congruential generator supplies them instead.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 11
}

#[test]
fn random_second() {
    let mut st = 42;
    for _ in 0..10000 {
        let sec = lcg(&mut st) % 253_370_764_800;
        let d = Duration::new(sec, 0);
        assert_eq!(d, parse_duration(&format_duration(d).to_string()).unwrap());
    }
}

#[test]
fn random_any() {
    let mut st = 7;
    for _ in 0..10000 {
        let sec = lcg(&mut st) % 253_370_764_800;
        let nanos = (lcg(&mut st) % 1_000_000_000) as u32;
        let d = Duration::new(sec, nanos);
        assert_eq!(d, parse_duration(&format_duration(d).to_string()).unwrap());
    }
}

#[test]
fn test_overlow() {
    // Overflow on subseconds is earlier because of how we do conversion
    // we could fix it, but I don't see any good reason for this
    assert_eq!(
        parse_duration("100000000000000000000ns"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("100000000000000000us"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("100000000000000ms"),
        Err(Error::NumberOverflow)
    );

    assert_eq!(
        parse_duration("100000000000000000000s"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("10000000000000000000m"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("1000000000000000000h"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("100000000000000000d"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("10000000000000000w"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("1000000000000000M"),
        Err(Error::NumberOverflow)
    );
    assert_eq!(
        parse_duration("10000000000000y"),
        Err(Error::NumberOverflow)
    );
}

#[test]
fn test_nice_error_message() {
    assert_eq!(
        parse_duration("123").unwrap_err().to_string(),
        "time unit needed, for example 123sec or 123ms"
    );
    assert_eq!(
        parse_duration("10 months 1").unwrap_err().to_string(),
        "time unit needed, for example 1sec or 1ms"
    );
    assert_eq!(
        parse_duration("10nights").unwrap_err().to_string(),
        "unknown time unit \"nights\", supported units: \
        ns, us/µs, ms, sec, min, hours, days, weeks, months, \
        years (and few variations)"
    );
}

#[cfg(feature = "mu")]
#[test]
fn test_format_micros() {
    assert_eq!(
        format_duration(Duration::from_micros(123)).to_string(),
        "123µs"
    );
}

#[cfg(not(feature = "mu"))]
#[test]
fn test_format_micros() {
    assert_eq!(
        format_duration(Duration::from_micros(123)).to_string(),
        "123us"
    );
}

#[test]
fn test_error_cases() {
    assert_eq!(
        parse_duration("\0").unwrap_err().to_string(),
        "expected number at 0"
    );
    assert_eq!(
        parse_duration("\r").unwrap_err().to_string(),
        "value was empty"
    );
    assert_eq!(
        parse_duration("1~").unwrap_err().to_string(),
        "invalid character at 1"
    );
    assert_eq!(
        parse_duration("1Nå").unwrap_err().to_string(),
        "invalid character at 2"
    );
    assert_eq!(parse_duration("222nsec221nanosmsec7s5msec572s").unwrap_err().to_string(),
               "unknown time unit \"nanosmsec\", supported units: ns, us/µs, ms, sec, min, hours, days, weeks, months, years (and few variations)");
}
