//! slopguard-guards (under construction).
