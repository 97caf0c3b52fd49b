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
