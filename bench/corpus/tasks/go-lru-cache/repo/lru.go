// Package lru implements a fixed-capacity least-recently-used cache.
package lru

import "container/list"

type entry struct {
	key   string
	value int
}

// Cache is a fixed-capacity LRU cache. It is not safe for concurrent use.
type Cache struct {
	capacity int
	ll       *list.List
	items    map[string]*list.Element
	// OnEvict, if set, is called with each entry removed because the cache
	// was full.
	OnEvict func(key string, value int)
}

// New returns a cache holding at most capacity entries. A capacity below 1
// is treated as 1.
func New(capacity int) *Cache {
	if capacity < 1 {
		capacity = 1
	}
	return &Cache{capacity: capacity, ll: list.New(), items: make(map[string]*list.Element)}
}

// Len reports the number of entries in the cache.
func (c *Cache) Len() int { return c.ll.Len() }

// Get returns the value stored for key and marks it as most recently used.
func (c *Cache) Get(key string) (int, bool) {
	el, ok := c.items[key]
	if !ok {
		return 0, false
	}
	c.ll.MoveToFront(el)
	return el.Value.(*entry).value, true
}

// Peek returns the value stored for key without changing its recency.
func (c *Cache) Peek(key string) (int, bool) {
	el, ok := c.items[key]
	if !ok {
		return 0, false
	}
	return el.Value.(*entry).value, true
}

// Put stores value under key, evicting the least recently used entry when
// the cache is full.
func (c *Cache) Put(key string, value int) {
	if el, ok := c.items[key]; ok {
		el.Value.(*entry).value = value
		c.ll.MoveToFront(el)
		return
	}
	c.items[key] = c.ll.PushFront(&entry{key: key, value: value})
	if c.ll.Len() > c.capacity {
		c.removeOldest()
	}
}

// Remove deletes key from the cache and reports whether it was present.
func (c *Cache) Remove(key string) bool {
	el, ok := c.items[key]
	if !ok {
		return false
	}
	c.ll.Remove(el)
	delete(c.items, key)
	return true
}

// Keys returns the keys from most to least recently used.
func (c *Cache) Keys() []string {
	keys := make([]string, 0, c.ll.Len())
	for el := c.ll.Front(); el != nil; el = el.Next() {
		keys = append(keys, el.Value.(*entry).key)
	}
	return keys
}

func (c *Cache) removeOldest() {
	el := c.ll.Back()
	if el == nil {
		return
	}
	c.ll.Remove(el)
	e := el.Value.(*entry)
	delete(c.items, e.key)
	if c.OnEvict != nil {
		c.OnEvict(e.key, e.value)
	}
}
