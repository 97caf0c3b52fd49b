import unittest

from textutils.words import capitalize_words, longest_word


class WordsTest(unittest.TestCase):
    def test_longest_word(self):
        self.assertEqual(longest_word("a bb ccc"), "ccc")

    def test_longest_word_of_nothing(self):
        self.assertEqual(longest_word(""), "")

    def test_capitalize_words(self):
        self.assertEqual(capitalize_words("hello big world"), "Hello Big World")
