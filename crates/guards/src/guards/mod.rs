//! One module per guard. Each exposes a unit struct implementing [`crate::Guard`] and an
//! `INFO` describing it; the guard's documentation lives in `docs/<slug>.md`.

pub mod config_grounding;
pub mod config_schema;
pub mod conflict_marker;
pub mod containment;
pub mod content_grounding;
pub mod dangling_import;
pub mod deletion_budget;
pub mod doc_preservation;
pub mod link_grounding;
pub mod manifest_block;
pub mod phantom_import;
pub mod placeholder;
pub mod psi_lite;
pub mod scratch_file;
pub mod symbol_preservation;
pub mod syntax;
pub mod test_integrity;
