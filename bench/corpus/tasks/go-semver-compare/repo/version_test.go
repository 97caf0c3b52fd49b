package semver

import (
	"testing"
)

func TestStrictNewVersion(t *testing.T) {
	tests := []struct {
		version string
		err     bool
	}{
		{"1.2.3", false},
		{"1.2.3-alpha.01", true},
		{"1.2.3+test.01", false},
		{"1.2.3-alpha.-1", false},
		{"v1.2.3", true},
		{"1.0", true},
		{"v1.0", true},
		{"1", true},
		{"v1", true},
		{"1.2", true},
		{"1.2.beta", true},
		{"v1.2.beta", true},
		{"foo", true},
		{"1.2-5", true},
		{"v1.2-5", true},
		{"1.2-beta.5", true},
		{"v1.2-beta.5", true},
		{"\n1.2", true},
		{"\nv1.2", true},
		{"1.2.0-x.Y.0+metadata", false},
		{"v1.2.0-x.Y.0+metadata", true},
		{"1.2.0-x.Y.0+metadata-width-hypen", false},
		{"v1.2.0-x.Y.0+metadata-width-hypen", true},
		{"1.2.3-rc1-with-hypen", false},
		{"1.2.3-0abc123", false}, // string pre-releases can start with 0
		{"1.2.3-beta.01", true},  // number segment cannot start with 0
		{"v1.2.3-rc1-with-hypen", true},
		{"1.2.3.4", true},
		{"v1.2.3.4", true},
		{"1.2.2147483648", false},
		{"1.2147483648.3", false},
		{"2147483648.3.0", false},

		// The SemVer spec in a pre-release expects to allow [0-9A-Za-z-]. But,
		// the lack of all 3 parts in this version should produce an error.
		{"20221209-update-renovatejson-v4", true},

		// Various cases that are invalid semver
		{"1.1.2+.123", true},                             // A leading . in build metadata. This would signify that the first segment is empty
		{"1.0.0-alpha_beta", true},                       // An underscore in the pre-release is an invalid character
		{"1.0.0-alpha..", true},                          // Multiple empty segments
		{"1.0.0-alpha..1", true},                         // Multiple empty segments but one with a value
		{"01.1.1", true},                                 // A leading 0 on a number segment
		{"1.01.1", true},                                 // A leading 0 on a number segment
		{"1.1.01", true},                                 // A leading 0 on a number segment
		{"9.8.7+meta+meta", true},                        // Multiple metadata parts
		{"1.2.31----RC-SNAPSHOT.12.09.1--.12+788", true}, // Leading 0 in a number part of a pre-release segment
		{"1.2.3-0123", true},
		{"1.2.3-0123.0123", true},
		{"+invalid", true},
		{"-invalid", true},
		{"-invalid.01", true},
		{"alpha+beta", true},
		{"1.2.3-alpha_beta+foo", true},
		{"1.0.0-alpha..1", true},
	}

	for _, tc := range tests {
		_, err := StrictNewVersion(tc.version)
		if tc.err && err == nil {
			t.Fatalf("expected error for version: %s", tc.version)
		} else if !tc.err && err != nil {
			t.Fatalf("error for version %s: %s", tc.version, err)
		}
	}
}

func TestNewVersion(t *testing.T) {
	t.Run("With loose NewVersion", func(t *testing.T) {
		tests := []struct {
			version string
			err     bool
		}{
			{"1.2.3", false},
			{"1.2.3-alpha.01", true},
			{"1.2.3+test.01", false},
			{"1.2.3-alpha.-1", false},
			{"v1.2.3", false},
			{"1.0", false},
			{"v1.0", false},
			{"1", false},
			{"v1", false},
			{"1.2.beta", true},
			{"v1.2.beta", true},
			{"foo", true},
			{"1.2-5", false},
			{"v1.2-5", false},
			{"1.2-beta.5", false},
			{"v1.2-beta.5", false},
			{"\n1.2", true},
			{"\nv1.2", true},
			{"1.2.0-x.Y.0+metadata", false},
			{"v1.2.0-x.Y.0+metadata", false},
			{"1.2.0-x.Y.0+metadata-width-hypen", false},
			{"v1.2.0-x.Y.0+metadata-width-hypen", false},
			{"1.2.3-rc1-with-hypen", false},
			{"v1.2.3-rc1-with-hypen", false},
			{"1.2.3-0abc123", false}, // string pre-releases can start with 0
			{"1.2.3-beta.01", true},  // number segment cannot start with 0
			{"1.2.3.4", true},
			{"v1.2.3.4", true},
			{"1.2.2147483648", false},
			{"1.2147483648.3", false},
			{"2147483648.3.0", false},

			// Due to having 4 parts these should produce an error. See
			// https://github.com/Masterminds/semver/issues/185 for the reason for
			// these tests.
			{"12.3.4.1234", true},
			{"12.23.4.1234", true},
			{"12.3.34.1234", true},

			// The SemVer spec in a pre-release expects to allow [0-9A-Za-z-].
			{"20221209-update-renovatejson-v4", false},

			// Various cases that are invalid semver
			{"1.1.2+.123", true},                             // A leading . in build metadata. This would signify that the first segment is empty
			{"1.0.0-alpha_beta", true},                       // An underscore in the pre-release is an invalid character
			{"1.0.0-alpha..", true},                          // Multiple empty segments
			{"1.0.0-alpha..1", true},                         // Multiple empty segments but one with a value
			{"9.8.7+meta+meta", true},                        // Multiple metadata parts
			{"1.2.31----RC-SNAPSHOT.12.09.1--.12+788", true}, // Leading 0 in a number part of a pre-release segment

			// Versions that are invalid but in loose mode are handled.
			// This enables a calver-ish style. This pattern has long
			// been supported by this package even though it technically
			// breaks from semver. Tools built on this allow it.
			{"01.1.1", false}, // A leading 0 on a number segment
			{"1.01.1", false}, // A leading 0 on a number segment
			{"1.1.01", false}, // A leading 0 on a number segment
		}

		for _, tc := range tests {
			_, err := NewVersion(tc.version)
			if tc.err && err == nil {
				t.Fatalf("expected error for version: %s", tc.version)
			} else if !tc.err && err != nil {
				t.Fatalf("error for version %s: %s", tc.version, err)
			}
		}
	})

	t.Run("Without loose NewVersion", func(t *testing.T) {
		CoerceNewVersion = false
		defer func() {
			CoerceNewVersion = true
		}()
		tests := []struct {
			version string
			err     bool
		}{
			{"1.2.3", false},
			{"1.2.3-alpha.01", true},
			{"1.2.3+test.01", false},
			{"1.2.3-alpha.-1", false},
			{"v1.2.3", false},
			{"1.0", false},
			{"v1.0", false},
			{"1", false},
			{"v1", false},
			{"1.2.beta", true},
			{"v1.2.beta", true},
			{"foo", true},
			{"1.2-5", false},
			{"v1.2-5", false},
			{"1.2-beta.5", false},
			{"v1.2-beta.5", false},
			{"\n1.2", true},
			{"\nv1.2", true},
			{"1.2.0-x.Y.0+metadata", false},
			{"v1.2.0-x.Y.0+metadata", false},
			{"1.2.0-x.Y.0+metadata-width-hypen", false},
			{"v1.2.0-x.Y.0+metadata-width-hypen", false},
			{"1.2.3-rc1-with-hypen", false},
			{"v1.2.3-rc1-with-hypen", false},
			{"1.2.3-0abc123", false}, // string pre-releases can start with 0
			{"1.2.3-beta.01", true},  // number segment cannot start with 0
			{"1.2.3.4", true},
			{"v1.2.3.4", true},
			{"1.2.2147483648", false},
			{"1.2147483648.3", false},
			{"2147483648.3.0", false},

			// Due to having 4 parts these should produce an error. See
			// https://github.com/Masterminds/semver/issues/185 for the reason for
			// these tests.
			{"12.3.4.1234", true},
			{"12.23.4.1234", true},
			{"12.3.34.1234", true},

			// The SemVer spec in a pre-release expects to allow [0-9A-Za-z-].
			{"20221209-update-renovatejson-v4", false},

			// Various cases that are invalid semver
			{"1.1.2+.123", true},                             // A leading . in build metadata. This would signify that the first segment is empty
			{"1.0.0-alpha_beta", true},                       // An underscore in the pre-release is an invalid character
			{"1.0.0-alpha..", true},                          // Multiple empty segments
			{"1.0.0-alpha..1", true},                         // Multiple empty segments but one with a value
			{"01.1.1", true},                                 // A leading 0 on a number segment
			{"1.01.1", true},                                 // A leading 0 on a number segment
			{"1.1.01", true},                                 // A leading 0 on a number segment
			{"9.8.7+meta+meta", true},                        // Multiple metadata parts
			{"1.2.31----RC-SNAPSHOT.12.09.1--.12+788", true}, // Leading 0 in a number part of a pre-release segment
		}

		for _, tc := range tests {
			_, err := NewVersion(tc.version)
			if tc.err && err == nil {
				t.Fatalf("expected error for version: %s", tc.version)
			} else if !tc.err && err != nil {
				t.Fatalf("error for version %s: %s", tc.version, err)
			}
		}
	})
}

func TestParts(t *testing.T) {
	v, err := NewVersion("1.2.3-beta.1+build.123")
	if err != nil {
		t.Error("Error parsing version 1.2.3-beta.1+build.123")
	}

	if v.Major() != 1 {
		t.Error("Major() returning wrong value")
	}
	if v.Minor() != 2 {
		t.Error("Minor() returning wrong value")
	}
	if v.Patch() != 3 {
		t.Error("Patch() returning wrong value")
	}
	if v.Prerelease() != "beta.1" {
		t.Error("Prerelease() returning wrong value")
	}
	if v.Metadata() != "build.123" {
		t.Error("Metadata() returning wrong value")
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		v1       string
		v2       string
		expected int
	}{
		{"1.2.3", "1.5.1", -1},
		{"2.2.3", "1.5.1", 1},
		{"2.2.3", "2.2.2", 1},
		{"3.2-beta", "3.2-beta", 0},
		{"1.3", "1.1.4", 1},
		{"4.2", "4.2-beta", 1},
		{"4.2-beta", "4.2", -1},
		{"4.2-alpha", "4.2-beta", -1},
		{"4.2-alpha", "4.2-alpha", 0},
		{"4.2-beta.2", "4.2-beta.1", 1},
		{"4.2-beta2", "4.2-beta1", 1},
		{"4.2-beta", "4.2-beta.2", -1},
		{"4.2-beta", "4.2-beta.foo", -1},
		{"4.2-beta.2", "4.2-beta", 1},
		{"4.2-beta.foo", "4.2-beta", 1},
		{"1.2+bar", "1.2+baz", 0},
		{"1.0.0-beta.4", "1.0.0-beta.-2", -1},
		{"1.0.0-beta.-2", "1.0.0-beta.-3", -1},
		{"1.0.0-beta.-3", "1.0.0-beta.5", 1},
	}

	for _, tc := range tests {
		v1, err := NewVersion(tc.v1)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		v2, err := NewVersion(tc.v2)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		a := v1.Compare(v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%d', got '%d'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestLessThan(t *testing.T) {
	tests := []struct {
		v1       string
		v2       string
		expected bool
	}{
		{"1.2.3", "1.5.1", true},
		{"2.2.3", "1.5.1", false},
		{"3.2-beta", "3.2-beta", false},
	}

	for _, tc := range tests {
		v1, err := NewVersion(tc.v1)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		v2, err := NewVersion(tc.v2)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		a := v1.LessThan(v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%t', got '%t'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestLessThanEqual(t *testing.T) {
	tests := []struct {
		v1       string
		v2       string
		expected bool
	}{
		{"1.2.3", "1.5.1", true},
		{"2.2.3", "1.5.1", false},
		{"1.5.1", "1.5.1", true},
	}

	for _, tc := range tests {
		v1, err := NewVersion(tc.v1)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		v2, err := NewVersion(tc.v2)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		a := v1.LessThanEqual(v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%t', got '%t'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestGreaterThan(t *testing.T) {
	tests := []struct {
		v1       string
		v2       string
		expected bool
	}{
		{"1.2.3", "1.5.1", false},
		{"2.2.3", "1.5.1", true},
		{"3.2-beta", "3.2-beta", false},
		{"3.2.0-beta.1", "3.2.0-beta.5", false},
		{"3.2-beta.4", "3.2-beta.2", true},
		{"7.43.0-SNAPSHOT.99", "7.43.0-SNAPSHOT.103", false},
		{"7.43.0-SNAPSHOT.FOO", "7.43.0-SNAPSHOT.103", true},
		{"7.43.0-SNAPSHOT.99", "7.43.0-SNAPSHOT.BAR", false},
	}

	for _, tc := range tests {
		v1, err := NewVersion(tc.v1)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		v2, err := NewVersion(tc.v2)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		a := v1.GreaterThan(v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%t', got '%t'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestGreaterThanEqual(t *testing.T) {
	tests := []struct {
		v1       string
		v2       string
		expected bool
	}{
		{"1.2.3", "1.5.1", false},
		{"2.2.3", "1.5.1", true},
		{"1.5.1", "1.5.1", true},
	}

	for _, tc := range tests {
		v1, err := NewVersion(tc.v1)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		v2, err := NewVersion(tc.v2)
		if err != nil {
			t.Errorf("Error parsing version: %s", err)
		}

		a := v1.GreaterThanEqual(v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%t', got '%t'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		v1       *Version
		v2       *Version
		expected bool
	}{
		{MustParse("1.2.3"), MustParse("1.5.1"), false},
		{MustParse("2.2.3"), MustParse("1.5.1"), false},
		{MustParse("3.2-beta"), MustParse("3.2-beta"), true},
		{MustParse("3.2-beta+foo"), MustParse("3.2-beta+bar"), true},
		{nil, nil, true},
		{nil, MustParse("1.2.3"), false},
		{MustParse("1.2.3"), nil, false},
	}

	for _, tc := range tests {
		a := tc.v1.Equal(tc.v2)
		e := tc.expected
		if a != e {
			t.Errorf(
				"Comparison of '%s' and '%s' failed. Expected '%t', got '%t'",
				tc.v1, tc.v2, e, a,
			)
		}
	}
}

func TestValidatePrerelease(t *testing.T) {
	tests := []struct {
		pre      string
		expected error
	}{
		{"foo", nil},
		{"alpha.1", nil},
		{"alpha.01", ErrSegmentStartsZero},
		{"foo☃︎", ErrInvalidPrerelease},
		{"alpha.0-1", nil},
	}

	for _, tc := range tests {
		if err := validatePrerelease(tc.pre); err != tc.expected {
			t.Errorf("Unexpected error %q for prerelease %q", err, tc.pre)
		}
	}
}

func TestValidateMetadata(t *testing.T) {
	tests := []struct {
		meta     string
		expected error
	}{
		{"foo", nil},
		{"alpha.1", nil},
		{"alpha.01", nil},
		{"foo☃︎", ErrInvalidMetadata},
		{"alpha.0-1", nil},
		{"al-pha.1Phe70CgWe050H9K1mJwRUqTNQXZRERwLOEg37wpXUb4JgzgaD5YkL52ABnoyiE", nil},
	}

	for _, tc := range tests {
		if err := validateMetadata(tc.meta); err != tc.expected {
			t.Errorf("Unexpected error %q for metadata %q", err, tc.meta)
		}
	}
}
