//! The registered ecosystems, one module each. Adding one: a module implementing
//! [`crate::Ecosystem`] and one line in [`ECOSYSTEMS`].

mod go;
mod node;
mod python;
mod python_hangs;
mod ruby;
mod rust;
mod rust_coverage;
mod rust_hangs;

pub use go::Go;
pub use node::Node;
pub use python::Python;
pub use ruby::Ruby;
pub use rust::Rust;

use crate::Ecosystem;

/// Every ecosystem slopguard knows, in the order their tests run and their results merge.
pub static ECOSYSTEMS: &[&dyn Ecosystem] = &[&Rust, &Python, &Go, &Node, &Ruby];
