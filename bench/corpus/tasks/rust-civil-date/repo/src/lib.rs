//! Proleptic Gregorian calendar dates without time zones.

use std::fmt;
use std::str::FromStr;

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

/// Day of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weekday {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

/// Returns true if `year` is a leap year.
pub fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Number of days in the given month (1-12) of `year`.
pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => panic!("invalid month {month}"),
    }
}

impl Date {
    /// Builds a date, or `None` if it does not exist.
    pub fn new(year: i32, month: u8, day: u8) -> Option<Date> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date { year, month, day })
    }

    pub fn year(&self) -> i32 {
        self.year
    }
    pub fn month(&self) -> u8 {
        self.month
    }
    pub fn day(&self) -> u8 {
        self.day
    }

    /// Day of the year, 1-based.
    pub fn ordinal(&self) -> u16 {
        let mut n = self.day as u16;
        for m in 1..self.month {
            n += days_in_month(self.year, m) as u16;
        }
        n
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn to_days(&self) -> i64 {
        // Algorithm from Howard Hinnant's "chrono-Compatible Low-Level Date
        // Algorithms" (days_from_civil).
        let y = if self.month <= 2 { self.year - 1 } else { self.year } as i64;
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let m = self.month as i64;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + self.day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }

    /// Inverse of [`Date::to_days`].
    pub fn from_days(days: i64) -> Date {
        let z = days + 719468;
        let era = if z >= 0 { z } else { z - 146096 } / 146097;
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = if m <= 2 { y + 1 } else { y } as i32;
        Date { year, month: m, day: d }
    }

    /// The date `n` days later (earlier if negative).
    pub fn add_days(&self, n: i64) -> Date {
        Date::from_days(self.to_days() + n)
    }

    /// The same day `n` months later, clamped to the end of shorter months
    /// (e.g. Jan 31 + 1 month = Feb 28/29).
    pub fn add_months(&self, n: i32) -> Date {
        let total = self.year * 12 + (self.month as i32 - 1) + n;
        let year = total.div_euclid(12);
        let month = (total.rem_euclid(12) + 1) as u8;
        let day = self.day.min(days_in_month(year, month));
        Date { year, month, day }
    }

    pub fn weekday(&self) -> Weekday {
        // 1970-01-01 was a Thursday.
        const DAYS: [Weekday; 7] = [
            Weekday::Thu,
            Weekday::Fri,
            Weekday::Sat,
            Weekday::Sun,
            Weekday::Mon,
            Weekday::Tue,
            Weekday::Wed,
        ];
        DAYS[self.to_days().rem_euclid(7) as usize]
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// Error for [`Date::from_str`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseDateError;

impl FromStr for Date {
    type Err = ParseDateError;

    /// Parses `YYYY-MM-DD`.
    fn from_str(s: &str) -> Result<Date, ParseDateError> {
        let mut it = s.splitn(3, '-');
        let (y, m, d) = match (it.next(), it.next(), it.next()) {
            (Some(y), Some(m), Some(d)) if y.len() == 4 && m.len() == 2 && d.len() == 2 => (y, m, d),
            _ => return Err(ParseDateError),
        };
        let y = y.parse().map_err(|_| ParseDateError)?;
        let m = m.parse().map_err(|_| ParseDateError)?;
        let d = d.parse().map_err(|_| ParseDateError)?;
        Date::new(y, m, d).ok_or(ParseDateError)
    }
}
