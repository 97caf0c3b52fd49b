//! One module per subcommand; each exposes an `Args` struct and a `run` function returning the
//! process exit code.

pub mod check;
pub mod guards;
pub mod hook;
pub mod replay;
pub mod serve;
pub mod analyze;
pub mod doctor;
pub mod plan;
