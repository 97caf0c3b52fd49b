//! A bounded LIFO stack (slopguard ladder, rung 2).

/// A last-in, first-out stack with a fixed capacity.
#[derive(Debug, Clone)]
pub struct Stack<T> {
    items: Vec<T>,
    capacity: usize,
}

/// Error returned when pushing onto a full stack.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl<T> Stack<T> {
    /// An empty stack holding at most `capacity` items.
    pub fn with_capacity(capacity: usize) -> Self {
        Stack {
            items: Vec::with_capacity(capacity),
            capacity,
        }
    }

    /// Pushes an item; fails when the stack is full.
    pub fn push(&mut self, item: T) -> Result<(), Full> {
        if self.items.len() >= self.capacity {
            return Err(Full);
        }
        self.items.push(item);
        Ok(())
    }

    /// Removes and returns the most recently pushed item.
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop()
    }

    /// The most recently pushed item, without removing it.
    pub fn peek(&self) -> Option<&T> {
        self.items.first()
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the stack holds no item.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
