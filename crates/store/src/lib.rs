//! slopguard-store (under construction).
