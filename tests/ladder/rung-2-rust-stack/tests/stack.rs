use ladder_stack::{Full, Stack};

#[test]
fn push_then_pop_is_lifo() {
    let mut s = Stack::with_capacity(3);
    s.push(1).unwrap();
    s.push(2).unwrap();
    assert_eq!(s.pop(), Some(2));
    assert_eq!(s.pop(), Some(1));
    assert_eq!(s.pop(), None);
}

#[test]
fn push_on_full_stack_fails() {
    let mut s = Stack::with_capacity(1);
    s.push('a').unwrap();
    assert_eq!(s.push('b'), Err(Full));
    assert_eq!(s.len(), 1);
}

#[test]
fn peek_returns_last_pushed() {
    let mut s = Stack::with_capacity(3);
    s.push("bottom").unwrap();
    s.push("top").unwrap();
    assert_eq!(s.peek(), Some(&"top"));
    assert_eq!(s.len(), 2);
}

#[test]
fn empty_stack() {
    let s: Stack<u8> = Stack::with_capacity(2);
    assert!(s.is_empty());
    assert_eq!(s.peek(), None);
}
