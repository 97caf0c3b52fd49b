use civil_date::{days_in_month, is_leap_year, Date, Weekday};

fn d(s: &str) -> Date {
    s.parse().unwrap()
}

#[test]
fn leap_years() {
    assert!(is_leap_year(2024));
    assert!(is_leap_year(2000));
    assert!(!is_leap_year(1900));
    assert!(!is_leap_year(2023));
    assert_eq!(days_in_month(2024, 2), 29);
    assert_eq!(days_in_month(2100, 2), 28);
}

#[test]
fn validates_dates() {
    assert!(Date::new(2023, 2, 29).is_none());
    assert!(Date::new(2024, 2, 29).is_some());
    assert!(Date::new(2024, 13, 1).is_none());
    assert!(Date::new(2024, 4, 31).is_none());
    assert!(Date::new(2024, 4, 0).is_none());
}

#[test]
fn parse_and_display() {
    assert_eq!(d("2024-03-07").to_string(), "2024-03-07");
    assert!("2024-3-07".parse::<Date>().is_err());
    assert!("2024-02-30".parse::<Date>().is_err());
    assert!("20240307".parse::<Date>().is_err());
}

#[test]
fn ordinal_day() {
    assert_eq!(d("2023-01-01").ordinal(), 1);
    assert_eq!(d("2023-12-31").ordinal(), 365);
    assert_eq!(d("2024-12-31").ordinal(), 366);
    assert_eq!(d("2024-03-01").ordinal(), 61);
}

#[test]
fn epoch_days_round_trip() {
    assert_eq!(d("1970-01-01").to_days(), 0);
    assert_eq!(d("2000-03-01").to_days(), 11017);
    assert_eq!(d("1969-12-31").to_days(), -1);
    for n in (-800_000..800_000).step_by(997) {
        assert_eq!(Date::from_days(n).to_days(), n);
    }
}

#[test]
fn add_days_crosses_boundaries() {
    assert_eq!(d("2023-12-31").add_days(1), d("2024-01-01"));
    assert_eq!(d("2024-02-28").add_days(1), d("2024-02-29"));
    assert_eq!(d("2024-03-01").add_days(-1), d("2024-02-29"));
    assert_eq!(d("2024-01-15").add_days(365), d("2025-01-14"));
}

#[test]
fn add_months_clamps() {
    assert_eq!(d("2024-01-31").add_months(1), d("2024-02-29"));
    assert_eq!(d("2023-01-31").add_months(1), d("2023-02-28"));
    assert_eq!(d("2024-11-15").add_months(3), d("2025-02-15"));
    assert_eq!(d("2024-03-31").add_months(-1), d("2024-02-29"));
    assert_eq!(d("2024-01-10").add_months(-13), d("2022-12-10"));
}

#[test]
fn weekdays() {
    assert_eq!(d("1970-01-01").weekday(), Weekday::Thu);
    assert_eq!(d("2024-02-29").weekday(), Weekday::Thu);
    assert_eq!(d("2000-01-01").weekday(), Weekday::Sat);
    assert_eq!(d("1969-12-28").weekday(), Weekday::Sun);
}
