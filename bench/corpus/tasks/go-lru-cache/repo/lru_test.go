package lru

import (
	"reflect"
	"testing"
)

func TestPutGet(t *testing.T) {
	c := New(2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %d, %v; want 1, true", v, ok)
	}
	if _, ok := c.Get("zzz"); ok {
		t.Fatalf("Get(zzz) found a value")
	}
	if c.Len() != 2 {
		t.Fatalf("Len() = %d, want 2", c.Len())
	}
}

func TestEvictsOldestInsert(t *testing.T) {
	var evicted []string
	c := New(2)
	c.OnEvict = func(k string, _ int) { evicted = append(evicted, k) }
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("c", 3)
	if _, ok := c.Peek("a"); ok {
		t.Fatalf("a should have been evicted")
	}
	if !reflect.DeepEqual(evicted, []string{"a"}) {
		t.Fatalf("evicted = %v, want [a]", evicted)
	}
}

func TestGetRefreshesRecency(t *testing.T) {
	c := New(2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Get("a")
	c.Put("c", 3)
	if _, ok := c.Peek("a"); !ok {
		t.Fatalf("a was read recently and must survive; keys = %v", c.Keys())
	}
	if _, ok := c.Peek("b"); ok {
		t.Fatalf("b should have been evicted; keys = %v", c.Keys())
	}
}

func TestPeekDoesNotRefresh(t *testing.T) {
	c := New(2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Peek("a")
	c.Put("c", 3)
	if _, ok := c.Peek("a"); ok {
		t.Fatalf("Peek must not refresh a; keys = %v", c.Keys())
	}
}

func TestUpdateExisting(t *testing.T) {
	c := New(2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("a", 10)
	if c.Len() != 2 {
		t.Fatalf("Len() = %d, want 2", c.Len())
	}
	if got := c.Keys(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("Keys() = %v, want [a b]", got)
	}
	if v, _ := c.Peek("a"); v != 10 {
		t.Fatalf("Peek(a) = %d, want 10", v)
	}
}

func TestRemove(t *testing.T) {
	c := New(3)
	c.Put("a", 1)
	c.Put("b", 2)
	if !c.Remove("a") {
		t.Fatalf("Remove(a) = false")
	}
	if c.Remove("a") {
		t.Fatalf("second Remove(a) = true")
	}
	if got := c.Keys(); !reflect.DeepEqual(got, []string{"b"}) {
		t.Fatalf("Keys() = %v, want [b]", got)
	}
}

func TestCapacityBelowOne(t *testing.T) {
	c := New(0)
	c.Put("a", 1)
	c.Put("b", 2)
	if c.Len() != 1 {
		t.Fatalf("Len() = %d, want 1", c.Len())
	}
	if _, ok := c.Peek("b"); !ok {
		t.Fatalf("newest entry b missing")
	}
}
