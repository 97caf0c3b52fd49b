//! slopguard-hooks (under construction).
