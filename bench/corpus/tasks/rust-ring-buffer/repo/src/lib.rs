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
mod tests {
    use super::*;

    fn contents<T: Clone>(r: &RingBuffer<T>) -> Vec<T> {
        r.iter().cloned().collect()
    }

    #[test]
    fn push_until_full() {
        let mut r = RingBuffer::with_capacity(3);
        assert!(r.is_empty());
        assert_eq!(r.push(1), None);
        assert_eq!(r.push(2), None);
        assert_eq!(r.push(3), None);
        assert!(r.is_full());
        assert_eq!(contents(&r), [1, 2, 3]);
    }

    #[test]
    fn overwrites_oldest_when_full() {
        let mut r = RingBuffer::with_capacity(3);
        for i in 1..=3 {
            r.push(i);
        }
        assert_eq!(r.push(4), Some(1));
        assert_eq!(r.push(5), Some(2));
        assert_eq!(contents(&r), [3, 4, 5]);
        assert_eq!(r.len(), 3);
        assert_eq!(r.get(0), Some(&3));
        assert_eq!(r.back(), Some(&5));
    }

    #[test]
    fn pop_front_fifo() {
        let mut r = RingBuffer::with_capacity(2);
        r.push("a");
        r.push("b");
        r.push("c");
        assert_eq!(r.pop_front(), Some("b"));
        assert_eq!(r.pop_front(), Some("c"));
        assert_eq!(r.pop_front(), None);
    }

    #[test]
    fn pop_back_after_wrap() {
        let mut r = RingBuffer::with_capacity(4);
        for i in 0..6 {
            r.push(i);
        }
        assert_eq!(r.pop_back(), Some(5));
        assert_eq!(r.pop_back(), Some(4));
        assert_eq!(contents(&r), [2, 3]);
        r.push(9);
        assert_eq!(contents(&r), [2, 3, 9]);
    }

    #[test]
    fn interleaved_push_pop_wraps() {
        let mut r = RingBuffer::with_capacity(3);
        let mut expected = std::collections::VecDeque::new();
        for i in 0..50 {
            if i % 3 == 2 {
                assert_eq!(r.pop_front(), expected.pop_front());
            } else {
                if expected.len() == 3 {
                    expected.pop_front();
                }
                expected.push_back(i);
                r.push(i);
            }
            assert_eq!(contents(&r), expected.iter().cloned().collect::<Vec<_>>());
        }
    }

    #[test]
    fn drain_after_wrap() {
        let mut r = RingBuffer::with_capacity(4);
        for i in 0..6 {
            r.push(i);
        }
        let mut drained = Vec::new();
        while let Some(v) = r.pop_front() {
            drained.push(v);
        }
        assert_eq!(drained, [2, 3, 4, 5]);
        assert!(r.is_empty());
    }

    #[test]
    fn get_out_of_range() {
        let mut r = RingBuffer::with_capacity(5);
        r.push('x');
        assert_eq!(r.get(0), Some(&'x'));
        assert_eq!(r.get(1), None);
    }

    #[test]
    fn clear_resets() {
        let mut r = RingBuffer::with_capacity(2);
        r.push(1);
        r.push(2);
        r.push(3);
        r.clear();
        assert!(r.is_empty());
        r.push(7);
        assert_eq!(contents(&r), [7]);
    }

    #[test]
    fn moving_average() {
        let mut r = RingBuffer::with_capacity(3);
        assert_eq!(r.mean(), None);
        for v in [1.0, 2.0, 3.0, 4.0] {
            r.push(v);
        }
        assert_eq!(r.mean(), Some(3.0));
    }

    #[test]
    #[should_panic(expected = "capacity must be positive")]
    fn zero_capacity_panics() {
        let _ = RingBuffer::<u8>::with_capacity(0);
    }
}
