import unittest

from calc.stats import average, spread, total


class TotalTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(total([1, 2, 3]), 6)

    def test_total_empty(self):
        self.assertEqual(total([]), 0)


class AverageTest(unittest.TestCase):
    def test_average_whole(self):
        self.assertEqual(average([2, 4, 6]), 4)

    def test_average_fraction(self):
        self.assertEqual(average([1, 2]), 1.5)

    def test_average_empty_raises(self):
        with self.assertRaises(ValueError):
            average([])


class SpreadTest(unittest.TestCase):
    def test_spread(self):
        self.assertEqual(spread([3, 9, 1]), 8)


if __name__ == "__main__":
    unittest.main()
