//! One module per subcommand; each exposes an `Args` struct and a `run` function returning the
//! process exit code.

pub mod analyze;
pub mod check;
pub mod ci_watch;
pub mod common;
pub mod doctor;
pub mod feedback;
pub mod feedback_args;
pub mod feedback_fix;
pub mod guards;
pub mod hook;
pub mod plan;
pub mod replay;
pub mod run;
pub mod serve;
