import pytest

from ledger import Money, allocate, format_amount, parse_amount


def test_parse_amount():
    assert parse_amount("12.34") == 1234
    assert parse_amount("1,234.5") == 123450
    assert parse_amount("-0.05") == -5
    assert parse_amount("7", "JPY") == 7
    assert parse_amount("1.234", "KWD") == 1234


def test_parse_amount_rejects_garbage():
    for text in ["", "-", "1.2.3", "abc", "1.234"]:
        with pytest.raises(ValueError):
            parse_amount(text)


def test_format_amount():
    assert format_amount(123456789) == "1,234,567.89"
    assert format_amount(5) == "0.05"
    assert format_amount(-100000) == "-1,000.00"
    assert format_amount(1234, "JPY") == "1,234"


def test_allocate_even():
    assert allocate(100, [1, 1]) == [50, 50]
    assert allocate(90, [1, 2]) == [30, 60]


def test_allocate_remainder_goes_to_largest_fractions():
    # 100 * 1/3 = 33.33.., 100 * 2/3 = 66.66..: the cent left goes to the second share
    assert allocate(100, [1, 2]) == [33, 67]
    assert allocate(10, [1, 2, 4]) == [1, 3, 6]
    # 50, 16.66.., 33.33..: not the largest share but the largest fraction
    assert allocate(100, [3, 1, 2]) == [50, 17, 33]


def test_allocate_ties_go_to_earlier_shares():
    assert allocate(100, [1, 1, 1]) == [34, 33, 33]
    assert allocate(2, [1, 1, 1]) == [1, 1, 0]


def test_allocate_sums_to_total():
    for units in range(0, 500, 7):
        for ratios in ([1], [1, 2, 3], [5, 0, 5], [7, 11, 13, 17]):
            assert sum(allocate(units, ratios)) == units


def test_allocate_negative_and_invalid():
    assert allocate(-100, [1, 2]) == [-33, -67]
    with pytest.raises(ValueError):
        allocate(10, [])
    with pytest.raises(ValueError):
        allocate(10, [0, 0])


def test_money_split_and_arithmetic():
    m = Money.parse("10.00")
    assert [str(p) for p in m.split([1, 1, 1])] == ["3.34 USD", "3.33 USD", "3.33 USD"]
    assert (m + Money(5)).units == 1005
    with pytest.raises(ValueError):
        m - Money(1, "EUR")
