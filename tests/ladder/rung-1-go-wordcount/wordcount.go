// Package wordcount counts words in text.
package wordcount

import (
	"sort"
	"strings"
)

// Count returns how often each lower-cased word occurs in text. Words are separated by any
// run of whitespace (spaces, tabs, newlines).
func Count(text string) map[string]int {
	counts := make(map[string]int)
	for _, w := range strings.Split(text, " ") {
		if w == "" {
			continue
		}
		counts[strings.ToLower(w)]++
	}
	return counts
}

// WordCount is one word with its number of occurrences.
type WordCount struct {
	Word  string
	Count int
}

// Top returns the n most frequent words, most frequent first; ties are broken alphabetically.
func Top(counts map[string]int, n int) []WordCount {
	list := make([]WordCount, 0, len(counts))
	for w, c := range counts {
		list = append(list, WordCount{Word: w, Count: c})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Count != list[j].Count {
			return list[i].Count > list[j].Count
		}
		return list[i].Word < list[j].Word
	})
	if n < len(list) {
		list = list[:n]
	}
	return list
}
