package wordcount

import (
	"reflect"
	"testing"
)

func TestCountSpaces(t *testing.T) {
	got := Count("the cat and the hat")
	want := map[string]int{"the": 2, "cat": 1, "and": 1, "hat": 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Count = %v, want %v", got, want)
	}
}

func TestCountCase(t *testing.T) {
	got := Count("Go go GO")
	want := map[string]int{"go": 3}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Count = %v, want %v", got, want)
	}
}

func TestCountMixedWhitespace(t *testing.T) {
	got := Count("one two\nthree\tone\n")
	want := map[string]int{"one": 2, "two": 1, "three": 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Count = %v, want %v", got, want)
	}
}

func TestTop(t *testing.T) {
	got := Top(map[string]int{"a": 1, "b": 3, "c": 3}, 2)
	want := []WordCount{{"b", 3}, {"c", 3}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Top = %v, want %v", got, want)
	}
}
