"""Small helpers over words of a text."""


def count_words(text):
    """Number of words in `text` (words are separated by whitespace)."""
    return len(text.split(" "))


def longest_word(text):
    """The longest word of `text` ("" for a text without words)."""
    words = text.split()
    if not words:
        return ""
    return max(words, key=len)


def capitalize_words(text):
    """`text` with the first letter of every word upper-cased."""
    return " ".join(w[:1].upper() + w[1:] for w in text.split())
