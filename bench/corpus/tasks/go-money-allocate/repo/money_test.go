package money

import (
	"errors"
	"reflect"
	"testing"
)

func TestFormat(t *testing.T) {
	cases := map[Amount]string{
		0:         "0.00",
		5:         "0.05",
		100:       "1.00",
		123456:    "1,234.56",
		-7:        "-0.07",
		-12345678: "-123,456.78",
		100000000: "1,000,000.00",
	}
	for a, want := range cases {
		if got := a.Format(); got != want {
			t.Errorf("Amount(%d).Format() = %q, want %q", int64(a), got, want)
		}
	}
}

func TestParse(t *testing.T) {
	cases := map[string]Amount{
		"12":       1200,
		"12.5":     1250,
		"-0.07":    -7,
		"1,234.50": 123450,
		"0.99":     99,
	}
	for in, want := range cases {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "-", "1.", "1.234", "abc", "1.x", ".5", "1.-5"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestSplitEven(t *testing.T) {
	got, err := Amount(300).Split(3)
	if err != nil || !reflect.DeepEqual(got, []Amount{100, 100, 100}) {
		t.Fatalf("Split = %v, %v", got, err)
	}
}

func TestSplitRemainder(t *testing.T) {
	got, _ := Amount(100).Split(3)
	if !reflect.DeepEqual(got, []Amount{34, 33, 33}) {
		t.Fatalf("Split(100, 3) = %v, want [34 33 33]", got)
	}
	got, _ = Amount(-100).Split(3)
	if !reflect.DeepEqual(got, []Amount{-34, -33, -33}) {
		t.Fatalf("Split(-100, 3) = %v, want [-34 -33 -33]", got)
	}
}

func TestAllocateRatios(t *testing.T) {
	got, err := Amount(1000).Allocate(70, 20, 10)
	if err != nil || !reflect.DeepEqual(got, []Amount{700, 200, 100}) {
		t.Fatalf("Allocate = %v, %v", got, err)
	}
	got, _ = Amount(5).Allocate(3, 7)
	if !reflect.DeepEqual(got, []Amount{2, 3}) {
		t.Fatalf("Allocate(5; 3,7) = %v, want [2 3]", got)
	}
}

func TestAllocateSkipsZeroRatios(t *testing.T) {
	got, _ := Amount(7).Allocate(0, 1, 1)
	if !reflect.DeepEqual(got, []Amount{0, 4, 3}) {
		t.Fatalf("Allocate(7; 0,1,1) = %v, want [0 4 3]", got)
	}
}

func TestAllocateErrors(t *testing.T) {
	if _, err := Amount(10).Allocate(); !errors.Is(err, ErrNoRatios) {
		t.Errorf("no ratios: err = %v", err)
	}
	if _, err := Amount(10).Allocate(0, 0); !errors.Is(err, ErrNoRatios) {
		t.Errorf("zero ratios: err = %v", err)
	}
	if _, err := Amount(10).Allocate(1, -1); err == nil {
		t.Errorf("negative ratio accepted")
	}
}

func TestAllocateConservesTotal(t *testing.T) {
	for a := Amount(0); a < 500; a += 7 {
		parts, err := a.Allocate(1, 2, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		var sum Amount
		for _, p := range parts {
			sum += p
		}
		if sum != a {
			t.Fatalf("Allocate(%d) = %v sums to %d", a, parts, sum)
		}
	}
}
