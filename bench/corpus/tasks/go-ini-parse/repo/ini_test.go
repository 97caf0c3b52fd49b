package ini

import (
	"errors"
	"reflect"
	"testing"
)

const sample = `; global settings
name = demo
# another comment

[server]
Host = example.org
port = 8080   ; the port
path = /a;b

[Motd]
text = "hello; world"
escaped = "tab\there \"q\""
`

func TestParseSections(t *testing.T) {
	f, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.SectionNames(), []string{"", "server", "Motd"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("SectionNames() = %q, want %q", got, want)
	}
	if v, _ := f.Get("", "name"); v != "demo" {
		t.Errorf("name = %q", v)
	}
}

func TestKeysCaseInsensitive(t *testing.T) {
	f, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"host", "HOST", "Host"} {
		if v, ok := f.Get("server", k); !ok || v != "example.org" {
			t.Errorf("Get(server, %q) = %q, %v", k, v, ok)
		}
	}
}

func TestTrailingComments(t *testing.T) {
	f, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get("server", "port"); v != "8080" {
		t.Errorf("port = %q, want 8080", v)
	}
	if v, _ := f.Get("server", "path"); v != "/a;b" {
		t.Errorf("path = %q, want /a;b (no whitespace before ';')", v)
	}
}

func TestQuotedValues(t *testing.T) {
	f, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get("Motd", "text"); v != "hello; world" {
		t.Errorf("text = %q", v)
	}
	if v, _ := f.Get("Motd", "escaped"); v != "tab\there \"q\"" {
		t.Errorf("escaped = %q", v)
	}
}

func TestGetInt(t *testing.T) {
	f, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.GetInt("server", "port", 80); err != nil || n != 8080 {
		t.Errorf("GetInt(port) = %d, %v", n, err)
	}
	if n, err := f.GetInt("server", "timeout", 30); err != nil || n != 30 {
		t.Errorf("GetInt(timeout) = %d, %v; want default 30", n, err)
	}
	if _, err := f.GetInt("server", "host", 0); err == nil {
		t.Errorf("GetInt(host) should fail")
	}
}

func TestRepeatedKeyKeepsLast(t *testing.T) {
	f, err := Parse("[a]\nx = 1\nx = 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get("a", "x"); v != "2" {
		t.Errorf("x = %q, want 2", v)
	}
}

func TestSyntaxErrors(t *testing.T) {
	cases := map[string]int{
		"[open\n":               1,
		"ok = 1\n[]\n":          2,
		"a = 1\nnovalue\n":      2,
		" = 3\n":                1,
		"[s]\nq = \"abc\n":      2,
		"[s]\nq = \"abc\" tail": 2,
	}
	for src, line := range cases {
		_, err := Parse(src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want *SyntaxError", src, err)
			continue
		}
		if se.Line != line {
			t.Errorf("Parse(%q) line = %d, want %d", src, se.Line, line)
		}
	}
}

func TestCRLF(t *testing.T) {
	f, err := Parse("[s]\r\nk = v\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get("s", "k"); v != "v" {
		t.Errorf("k = %q", v)
	}
}
