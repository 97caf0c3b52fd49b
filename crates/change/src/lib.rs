//! slopguard-change (under construction).
