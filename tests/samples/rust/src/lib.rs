//! A tiny calculator.

pub mod ops;
