//! The list of every guard, in the order they run.

use crate::Guard;
use crate::guards;

static GUARDS: &[&dyn Guard] = &[
    &guards::containment::Containment,
    &guards::manifest_block::ManifestBlock,
    &guards::syntax::Syntax,
    &guards::symbol_preservation::SymbolPreservation,
    &guards::dangling_import::DanglingImport,
    &guards::deletion_budget::DeletionBudget,
    &guards::placeholder::Placeholder,
    &guards::scratch_file::ScratchFile,
    &guards::conflict_marker::ConflictMarker,
    &guards::test_integrity::TestIntegrity,
    &guards::config_schema::ConfigSchema,
    &guards::content_grounding::ContentGrounding,
    &guards::config_grounding::ConfigGrounding,
    &guards::doc_preservation::DocPreservation,
    &guards::link_grounding::LinkGrounding,
    &guards::phantom_import::PhantomImport,
    &guards::psi_lite::PsiLite,
];

/// Every guard, in run order.
pub fn registry() -> &'static [&'static dyn Guard] {
    GUARDS
}

/// The guard named `name` (slug or code, case-insensitive).
pub fn find_guard(name: &str) -> Option<&'static dyn Guard> {
    registry().iter().copied().find(|g| {
        let info = g.info();
        info.slug.eq_ignore_ascii_case(name)
            || info.code.is_some_and(|c| c.eq_ignore_ascii_case(name))
    })
}
