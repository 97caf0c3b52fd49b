//! One module per guard. Each exposes a unit struct implementing [`crate::Guard`] and an
//! `INFO` describing it; the guard's documentation lives in `docs/<slug>.md`.

pub mod containment;
pub mod deletion_budget;
pub mod manifest_block;
pub mod placeholder;
pub mod scratch_file;
pub mod symbol_preservation;
pub mod syntax;
