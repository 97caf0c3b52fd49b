import pytest

from pager import paginate, page_links

ITEMS = list(range(1, 96))   # 95 items


def test_first_page():
    p = paginate(ITEMS, 1, per_page=10)
    assert p.items == list(range(1, 11))
    assert p.total_pages == 10
    assert (p.has_previous, p.has_next) == (False, True)


def test_last_partial_page():
    p = paginate(ITEMS, 10, per_page=10)
    assert p.items == [91, 92, 93, 94, 95]
    assert (p.first_index, p.last_index) == (91, 95)
    assert p.has_next is False


def test_page_from_query_string():
    assert paginate(ITEMS, "3", per_page=10).items[0] == 21
    assert paginate(ITEMS, "", per_page=10).number == 1
    assert paginate(ITEMS, "abc", per_page=10).number == 1
    assert paginate(ITEMS, None, per_page=10).number == 1


def test_out_of_range_pages():
    assert paginate(ITEMS, 99, per_page=10).number == 10
    assert paginate(ITEMS, -4, per_page=10).number == 1
    with pytest.raises(ValueError):
        paginate(ITEMS, 11, per_page=10, clamp=False)
    with pytest.raises(ValueError):
        paginate(ITEMS, 1, per_page=0)


def test_empty_list():
    p = paginate([], 1)
    assert p.items == [] and p.total_pages == 1
    assert (p.first_index, p.last_index) == (0, 0)


def test_links_in_the_middle():
    assert page_links(7, 20) == [1, None, 5, 6, 7, 8, 9, None, 20]


def test_links_near_the_ends():
    assert page_links(1, 20) == [1, 2, 3, None, 20]
    assert page_links(20, 20) == [1, None, 18, 19, 20]
    assert page_links(2, 3) == [1, 2, 3]


def test_single_page_gaps_are_filled():
    assert page_links(5, 20) == [1, 2, 3, 4, 5, 6, 7, None, 20]
    assert page_links(4, 9, window=1) == [1, 2, 3, 4, 5, None, 9]


def test_wider_edges():
    assert page_links(10, 20, window=1, edges=2) == [1, 2, None, 9, 10, 11, None, 19, 20]
    assert page_links(1, 0) == []
