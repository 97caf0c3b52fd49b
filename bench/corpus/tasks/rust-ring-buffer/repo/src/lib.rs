//! A fixed-capacity ring buffer that overwrites its oldest element when full.
//! Handy for "last N log lines" or moving averages.

/// Fixed-capacity FIFO queue backed by a boxed slice.
#[derive(Debug, Clone)]
pub struct RingBuffer<T> {
    buf: Vec<Option<T>>,
    /// Index of the oldest element.
    head: usize,
    len: usize,
}

impl<T> RingBuffer<T> {
    /// Creates an empty buffer. Panics if `capacity` is zero.
    pub fn with_capacity(capacity: usize) -> Self {
        assert!(capacity > 0, "capacity must be positive");
        let mut buf = Vec::with_capacity(capacity);
        buf.resize_with(capacity, || None);
        RingBuffer { buf, head: 0, len: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    fn slot(&self, i: usize) -> usize {
        (self.head + i) % self.capacity()
    }

    /// Appends `value`. When the buffer is full the oldest element is
    /// removed and returned.
    pub fn push(&mut self, value: T) -> Option<T> {
        if self.is_full() {
            let old = self.buf[self.head].replace(value);
            self.head = (self.head + 1) % self.capacity();
            old
        } else {
            let idx = self.slot(self.len);
            self.buf[idx] = Some(value);
            self.len += 1;
            None
        }
    }

    /// Removes and returns the oldest element.
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let v = self.buf[self.head].take();
        self.head = (self.head + 1) % self.capacity();
        self.len -= 1;
        v
    }

    /// Removes and returns the newest element.
    pub fn pop_back(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let idx = self.slot(self.len - 1);
        self.len -= 1;
        self.buf[idx].take()
    }

    /// Element `i` counted from the oldest.
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        self.buf[self.slot(i)].as_ref()
    }

    /// The newest element.
    pub fn back(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// Iterates from oldest to newest.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).filter_map(move |i| self.get(i))
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        while self.pop_front().is_some() {}
        self.head = 0;
    }
}

impl RingBuffer<f64> {
    /// Mean of the stored values, or `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        if self.is_empty() {
            None
        } else {
            Some(self.iter().sum::<f64>() / self.len as f64)
        }
    }
}

#[cfg(test)]
mod tests;
