// Package ini parses a small dialect of INI configuration files.
//
//	; comment
//	# comment
//	name = top-level value
//	[server]
//	host = example.org
//	port = 8080          ; trailing comments need whitespace before them
//	motd = "quoted; value"
//
// Keys are case-insensitive and stored in lower case. Section names keep
// their case. A key repeated within a section keeps the last value.
package ini

import (
	"fmt"
	"strconv"
	"strings"
)

// File holds the parsed sections. Keys outside any section live in the
// section named "".
type File struct {
	Sections map[string]map[string]string
	order    []string
}

// SyntaxError reports the 1-based line of a malformed input line.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("ini: line %d: %s", e.Line, e.Msg)
}

// Parse parses src.
func Parse(src string) (*File, error) {
	f := &File{Sections: map[string]map[string]string{}}
	section := ""
	f.section(section)
	for i, raw := range strings.Split(src, "\n") {
		lineNo := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			if !strings.HasSuffix(line, "]") {
				return nil, &SyntaxError{lineNo, "unterminated section header"}
			}
			section = strings.TrimSpace(line[1 : len(line)-1])
			if section == "" {
				return nil, &SyntaxError{lineNo, "empty section name"}
			}
			f.section(section)
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, &SyntaxError{lineNo, "expected key = value"}
		}
		key := strings.ToLower(strings.TrimSpace(line[:eq]))
		if key == "" {
			return nil, &SyntaxError{lineNo, "empty key"}
		}
		value, err := parseValue(strings.TrimSpace(line[eq+1:]))
		if err != nil {
			return nil, &SyntaxError{lineNo, err.Error()}
		}
		f.Sections[section][key] = value
	}
	return f, nil
}

func (f *File) section(name string) {
	if _, ok := f.Sections[name]; !ok {
		f.Sections[name] = map[string]string{}
		f.order = append(f.order, name)
	}
}

// parseValue strips a trailing comment and surrounding quotes.
func parseValue(v string) (string, error) {
	if strings.HasPrefix(v, `"`) {
		end := closingQuote(v)
		if end < 0 {
			return "", fmt.Errorf("unterminated quoted value")
		}
		s, err := strconv.Unquote(v[:end+1])
		if err != nil {
			return "", err
		}
		rest := strings.TrimSpace(v[end+1:])
		if rest != "" && rest[0] != ';' && rest[0] != '#' {
			return "", fmt.Errorf("unexpected text after quoted value")
		}
		return s, nil
	}
	for i := 1; i < len(v); i++ {
		if (v[i] == ';' || v[i] == '#') && (v[i-1] == ' ' || v[i-1] == '\t') {
			return strings.TrimSpace(v[:i]), nil
		}
	}
	return v, nil
}

// closingQuote returns the index of the quote closing the string that
// starts at v[0], skipping backslash escapes, or -1.
func closingQuote(v string) int {
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// Get returns the value of key in section.
func (f *File) Get(section, key string) (string, bool) {
	s, ok := f.Sections[section]
	if !ok {
		return "", false
	}
	v, ok := s[strings.ToLower(key)]
	return v, ok
}

// GetInt returns the value of key parsed as an integer, or def when the key
// is missing.
func (f *File) GetInt(section, key string, def int) (int, error) {
	v, ok := f.Get(section, key)
	if !ok {
		return def, nil
	}
	return strconv.Atoi(v)
}

// SectionNames returns the section names in order of first appearance,
// starting with "".
func (f *File) SectionNames() []string {
	return append([]string(nil), f.order...)
}
