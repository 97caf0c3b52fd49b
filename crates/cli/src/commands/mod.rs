//! One module per subcommand; each exposes an `Args` struct and a `run` function returning the
//! process exit code.

pub(crate) mod analyze;
pub(crate) mod check;
pub(crate) mod ci_watch;
pub(crate) mod common;
pub(crate) mod doctor;
pub(crate) mod feedback;
pub(crate) mod feedback_args;
pub(crate) mod feedback_fix;
pub(crate) mod guards;
pub(crate) mod hook;
pub(crate) mod plan;
pub(crate) mod replay;
pub(crate) mod run;
pub(crate) mod serve;
