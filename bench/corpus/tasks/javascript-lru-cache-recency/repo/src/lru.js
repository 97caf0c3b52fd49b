// A small least-recently-used cache built on Map's insertion order.
// The first key in the map is always the least recently used one.

export class LRUCache {
  #map = new Map();
  #max;
  #onEvict;

  constructor({ max = 100, onEvict = null } = {}) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError('max must be a positive integer');
    }
    this.#max = max;
    this.#onEvict = onEvict;
  }

  get size() {
    return this.#map.size;
  }

  get max() {
    return this.#max;
  }

  has(key) {
    return this.#map.has(key);
  }

  get(key) {
    if (!this.#map.has(key)) {
      return undefined;
    }
    const value = this.#map.get(key);
    // refresh recency: move the key to the end of the insertion order
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  peek(key) {
    return this.#map.get(key);
  }

  set(key, value) {
    if (this.#map.has(key)) {
      this.#map.delete(key);
    }
    this.#map.set(key, value);
    this.#trim();
    return this;
  }

  delete(key) {
    return this.#map.delete(key);
  }

  clear() {
    this.#map.clear();
  }

  resize(max) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError('max must be a positive integer');
    }
    this.#max = max;
    this.#trim();
  }

  keys() {
    return [...this.#map.keys()];
  }

  #trim() {
    while (this.#map.size > this.#max) {
      const [oldestKey, oldestValue] = this.#map.entries().next().value;
      this.#map.delete(oldestKey);
      if (this.#onEvict) {
        this.#onEvict(oldestKey, oldestValue);
      }
    }
  }
}
