//! slopguard-server (under construction).
