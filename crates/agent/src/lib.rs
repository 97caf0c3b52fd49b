//! slopguard-agent (under construction).
