// Package money handles amounts of money as integer minor units (cents).
package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Amount is a quantity of money in minor units.
type Amount int64

// ErrNoRatios is returned by Allocate when no ratios (or only zero ratios)
// are given.
var ErrNoRatios = errors.New("money: no ratios to allocate by")

// Format renders a like "-1,234.05".
func (a Amount) Format() string {
	neg := a < 0
	u := uint64(a)
	if neg {
		u = uint64(-a)
	}
	whole := strconv.FormatUint(u/100, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	fmt.Fprintf(&b, ".%02d", u%100)
	return b.String()
}

// Parse reads an amount such as "12", "12.5", "-0.07" or "1,234.50".
// More than two decimals is an error.
func Parse(s string) (Amount, error) {
	orig := s
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s = strings.ReplaceAll(s, ",", "")
	whole, frac, hasFrac := strings.Cut(s, ".")
	if whole == "" || (hasFrac && (frac == "" || len(frac) > 2)) {
		return 0, fmt.Errorf("money: invalid amount %q", orig)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("money: invalid amount %q", orig)
	}
	var f int64
	if hasFrac {
		if len(frac) == 1 {
			frac += "0"
		}
		f, err = strconv.ParseInt(frac, 10, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("money: invalid amount %q", orig)
		}
	}
	v := Amount(w*100 + f)
	if neg {
		v = -v
	}
	return v, nil
}

// Allocate splits a according to ratios without losing or creating a cent.
// Each share gets floor(a*ratio/total); the cents left over go, one each,
// to the first shares in order. Negative amounts are split like their
// absolute value and then negated.
func (a Amount) Allocate(ratios ...int) ([]Amount, error) {
	total := 0
	for _, r := range ratios {
		if r < 0 {
			return nil, fmt.Errorf("money: negative ratio %d", r)
		}
		total += r
	}
	if total == 0 {
		return nil, ErrNoRatios
	}
	if a < 0 {
		parts, err := (-a).Allocate(ratios...)
		for i := range parts {
			parts[i] = -parts[i]
		}
		return parts, err
	}
	parts := make([]Amount, len(ratios))
	remainder := a
	for i, r := range ratios {
		parts[i] = a * Amount(r) / Amount(total)
		remainder -= parts[i]
	}
	for i := 0; remainder > 0; i++ {
		if ratios[i%len(ratios)] == 0 {
			continue
		}
		parts[i%len(ratios)]++
		remainder--
	}
	return parts, nil
}

// Split divides a into n nearly equal parts.
func (a Amount) Split(n int) ([]Amount, error) {
	if n <= 0 {
		return nil, ErrNoRatios
	}
	ratios := make([]int, n)
	for i := range ratios {
		ratios[i] = 1
	}
	return a.Allocate(ratios...)
}
