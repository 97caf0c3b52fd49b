//! Grounding checks (issue 3): the failures that parse cleanly but are wrong. A config its tool
//! will refuse (G10 [`schema`]), a doc naming a framework the repo does not use (G11
//! [`content`]), a JS/TS config referencing an undeclared npm package (G12 [`config_refs`]), a
//! doc modification that destroys its code blocks (G13 [`doc_preservation`]), links to files
//! that do not exist (G14 [`links`]), imports of packages nobody declared ([`phantom`]), and the
//! Psi-lite score ([`psi`]).
//!
//! Everything here is a pure function of its inputs (texts, a [`Fingerprint`], a
//! [`TreeView`]); nothing touches the network except [`links::check_url`], which the caller
//! invokes only when the user opted in, and which fails open.
//!
//! [`Fingerprint`]: slopguard_fingerprint::Fingerprint

pub mod config_refs;
pub mod content;
pub mod data;
pub mod doc_links;
pub mod doc_preservation;
pub mod links;
pub mod markdown;
pub mod phantom;
pub mod psi;
pub mod schema;

pub use links::TreeView;
